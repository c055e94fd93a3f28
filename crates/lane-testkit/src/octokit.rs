//! octokit's reference webhook signer (`@octokit/webhooks-methods`), run
//! by `node`: what GitHub's own libraries say a delivery's
//! `X-Hub-Signature-256` is. Every test that signs or checks a delivery
//! against the reference goes through here.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

const READ_STDIN: &str = "const chunks = []; for await (const c of process.stdin) chunks.push(c); \
     const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));";

/// Runs `script` (an ES module) under node where the package imports,
/// with `input` as JSON on stdin; returns its stdout as JSON.
fn node(script: &str, input: &Value) -> Value {
    let mut child = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(crate::tools::webhooks_methods())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs (it is what `./just tools` installs Prism with)");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(&serde_json::to_vec(input).expect("JSON"))
        .expect("node reads its input");
    let out = child.wait_with_output().expect("node ends");
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("node prints JSON")
}

/// The reference's `sign(secret, body)` of each body (`sha256=<hex>`).
pub fn sign_all(secret: &str, bodies: &[String]) -> Vec<String> {
    let script = format!(
        "import {{ sign }} from '@octokit/webhooks-methods'; {READ_STDIN} \
         const out = []; for (const b of input.bodies) out.push(await sign(input.secret, b)); \
         console.log(JSON.stringify(out));"
    );
    let out = node(&script, &json!({ "secret": secret, "bodies": bodies }));
    serde_json::from_value(out).expect("a list of signatures")
}

/// The reference's signature of one UTF-8 body.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let body = String::from_utf8(body.to_vec()).expect("a UTF-8 body");
    sign_all(secret, &[body]).pop().expect("one signature")
}

/// The reference's `verify(secret, body, signature)` of each pair.
pub fn verify_all(secret: &str, pairs: &[(String, String)]) -> Vec<bool> {
    let script = format!(
        "import {{ verify }} from '@octokit/webhooks-methods'; {READ_STDIN} \
         const out = []; for (const [b, s] of input.pairs) out.push(await verify(input.secret, b, s)); \
         console.log(JSON.stringify(out));"
    );
    let out = node(&script, &json!({ "secret": secret, "pairs": pairs }));
    serde_json::from_value(out).expect("a list of answers")
}
