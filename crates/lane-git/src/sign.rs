//! Annotated release tags, signed through git's own signing configuration
//! when asked (`gpg.format`: `openpgp`, `ssh` or `x509`; `user.signingKey`;
//! `gpg.program`, `gpg.ssh.program`, `gpg.x509.program`), the way
//! `git tag -s` signs: the signer sees the tag object's bytes and its
//! detached, armored signature is appended to the message. The object is
//! written without a ref, so the caller creates every object before any ref.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use git2::{ObjectType, Oid, Repository, Signature};

use crate::error::{output_tail, Ctx, GitError};

/// The signing settings read from git's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigningConfig {
    /// `gpg.format`.
    pub format: SignFormat,
    /// The program: `gpg.program` (`gpg`), `gpg.ssh.program` (`ssh-keygen`)
    /// or `gpg.x509.program` (`gpgsm`).
    pub program: String,
    /// `user.signingKey`; for `openpgp`/`x509` the tagger's identity when unset.
    pub key: Option<String>,
}

/// `gpg.format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SignFormat {
    /// OpenPGP (`gpg`), git's default.
    Openpgp,
    /// SSH signatures (`ssh-keygen -Y sign`).
    Ssh,
    /// X.509 (`gpgsm`).
    X509,
}

impl SigningConfig {
    /// Reads the repository's (and the user's) git configuration.
    pub fn read(repo: &Repository) -> Result<SigningConfig, GitError> {
        let config = repo.config().ctx(|| "reading git's configuration".into())?;
        let get = |k: &str| config.get_string(k).ok().filter(|v| !v.trim().is_empty());
        let format = match get("gpg.format").as_deref() {
            None | Some("openpgp") => SignFormat::Openpgp,
            Some("ssh") => SignFormat::Ssh,
            Some("x509") => SignFormat::X509,
            Some(other) => {
                return Err(GitError::Sign {
                    message: format!("gpg.format is `{other}`; git knows openpgp, ssh and x509"),
                })
            }
        };
        let program = match format {
            SignFormat::Openpgp => get("gpg.openpgp.program")
                .or_else(|| get("gpg.program"))
                .unwrap_or_else(|| "gpg".into()),
            SignFormat::Ssh => get("gpg.ssh.program").unwrap_or_else(|| "ssh-keygen".into()),
            SignFormat::X509 => get("gpg.x509.program").unwrap_or_else(|| "gpgsm".into()),
        };
        Ok(SigningConfig {
            format,
            program,
            key: get("user.signingkey"),
        })
    }
}

/// The bytes of an annotated tag object, as git writes them (the message
/// ends with a newline).
pub fn tag_buffer(
    target: Oid,
    kind: &str,
    name: &str,
    tagger: &Signature<'_>,
    message: &str,
) -> Vec<u8> {
    let when = tagger.when();
    let offset = when.offset_minutes();
    let sign = if offset < 0 { '-' } else { '+' };
    let mut buf = Vec::new();
    let _ = write!(
        buf,
        "object {target}\ntype {kind}\ntag {name}\ntagger {} <{}> {} {sign}{:02}{:02}\n\n",
        String::from_utf8_lossy(tagger.name_bytes()),
        String::from_utf8_lossy(tagger.email_bytes()),
        when.seconds(),
        offset.abs() / 60,
        offset.abs() % 60,
    );
    buf.extend_from_slice(message.as_bytes());
    if !message.ends_with('\n') {
        buf.push(b'\n');
    }
    buf
}

/// The bytes of the annotated tag object `name` -> `target` (a commit),
/// signed when `signing` is given. Nothing is written.
pub fn tag_object(
    name: &str,
    target: Oid,
    tagger: &Signature<'_>,
    message: &str,
    signing: Option<&SigningConfig>,
) -> Result<Vec<u8>, GitError> {
    let mut buf = tag_buffer(target, "commit", name, tagger, message);
    if let Some(cfg) = signing {
        let signature = sign_buffer(cfg, &buf, tagger)?;
        buf.extend_from_slice(&signature);
    }
    Ok(buf)
}

/// Writes a tag object's bytes (from [`tag_object`]) and returns its id.
/// No ref is created.
pub fn write_tag_object(repo: &Repository, bytes: &[u8]) -> Result<Oid, GitError> {
    let odb = repo.odb().ctx(|| "opening the object database".into())?;
    odb.write(ObjectType::Tag, bytes)
        .ctx(|| "writing the tag object".into())
}

/// Runs the configured signer over `payload` and returns its armored,
/// detached signature.
fn sign_buffer(
    cfg: &SigningConfig,
    payload: &[u8],
    tagger: &Signature<'_>,
) -> Result<Vec<u8>, GitError> {
    match cfg.format {
        SignFormat::Ssh => sign_ssh(cfg, payload),
        SignFormat::Openpgp | SignFormat::X509 => {
            let key = cfg.key.clone().unwrap_or_else(|| {
                format!(
                    "{} <{}>",
                    String::from_utf8_lossy(tagger.name_bytes()),
                    String::from_utf8_lossy(tagger.email_bytes())
                )
            });
            let out = run_signer(
                Command::new(&cfg.program).args(["--status-fd=2", "-bsau", &key]),
                Some(payload),
                &cfg.program,
            )?;
            // As git does: a signature counts only when the signer says it made one.
            if !String::from_utf8_lossy(&out.stderr).contains("[GNUPG:] SIG_CREATED ") {
                return Err(GitError::Sign {
                    message: format!(
                        "{} did not report a signature: {}",
                        cfg.program,
                        tail(&out.stderr)
                    ),
                });
            }
            Ok(out.stdout)
        }
    }
}

fn sign_ssh(cfg: &SigningConfig, payload: &[u8]) -> Result<Vec<u8>, GitError> {
    let Some(key) = cfg.key.as_deref() else {
        return Err(GitError::Sign {
            message: "gpg.format is ssh but user.signingKey is not set (a key file, or `key::<public key>` for an agent's key)".into(),
        });
    };
    let dir = tempfile::tempdir().map_err(|e| GitError::Sign {
        message: format!("making a temporary folder for the signer: {e}"),
    })?;
    let payload_path = dir.path().join("tag");
    write_file(&payload_path, payload)?;
    let mut cmd = Command::new(&cfg.program);
    cmd.args(["-Y", "sign", "-n", "git", "-f"]);
    // git's rule: `key::<public key>` is a literal key held by the agent (-U).
    if let Some(literal) = key.strip_prefix("key::").or_else(|| {
        (key.starts_with("ssh-") || key.starts_with("ecdsa-") || key.starts_with("sk-"))
            .then_some(key)
    }) {
        let key_path = dir.path().join("key.pub");
        write_file(&key_path, literal.as_bytes())?;
        cmd.arg(&key_path).arg("-U");
    } else {
        cmd.arg(expand_home(key));
    }
    cmd.arg(&payload_path);
    run_signer(&mut cmd, None, &cfg.program)?;
    let sig_path = dir.path().join("tag.sig");
    std::fs::read(&sig_path).map_err(|e| GitError::Sign {
        message: format!(
            "{} wrote no signature ({}): {e}",
            cfg.program,
            sig_path.display()
        ),
    })
}

fn expand_home(p: &str) -> std::path::PathBuf {
    match (p.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => p.into(),
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), GitError> {
    std::fs::write(path, bytes).map_err(|e| GitError::Sign {
        message: format!("writing {}: {e}", path.display()),
    })
}

fn run_signer(
    cmd: &mut Command,
    stdin: Option<&[u8]>,
    program: &str,
) -> Result<std::process::Output, GitError> {
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| GitError::Sign {
        message: format!("cannot run the signer `{program}`: {e}"),
    })?;
    if let (Some(bytes), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(bytes).map_err(|e| GitError::Sign {
            message: format!("writing to `{program}`: {e}"),
        })?;
    }
    let out = child.wait_with_output().map_err(|e| GitError::Sign {
        message: format!("waiting for `{program}`: {e}"),
    })?;
    if !out.status.success() {
        return Err(GitError::Sign {
            message: format!("`{program}` failed ({}): {}", out.status, tail(&out.stderr)),
        });
    }
    Ok(out)
}

/// The last few lines a signer printed, control characters escaped.
fn tail(stderr: &[u8]) -> String {
    output_tail(stderr, 3, 400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_buffer_is_laid_out_as_git_writes_it() {
        let sig = Signature::new(
            "Ada",
            "ada@example.org",
            &git2::Time::new(1_700_000_000, -90),
        )
        .unwrap();
        let id = Oid::from_str("d322e547ffd013d890a4fd268f0a9b5a63b741af").unwrap();
        let b = tag_buffer(id, "commit", "v0.93.3", &sig, "v0.93.3 honest mint phases");
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "object d322e547ffd013d890a4fd268f0a9b5a63b741af\ntype commit\ntag v0.93.3\ntagger Ada <ada@example.org> 1700000000 -0130\n\nv0.93.3 honest mint phases\n"
        );
    }

    #[test]
    fn an_unsigned_tag_object_equals_libgit2s() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let sig = Signature::new(
            "Ada",
            "ada@example.org",
            &git2::Time::new(1_700_000_000, 60),
        )
        .unwrap();
        let tree = repo.treebuilder(None).unwrap().write().unwrap();
        let tree = repo.find_tree(tree).unwrap();
        let c = repo.commit(None, &sig, &sig, "c", &tree, &[]).unwrap();
        let bytes = tag_object("v1.0.0", c, &sig, "v1.0.0 first", None).unwrap();
        let ours = write_tag_object(&repo, &bytes).unwrap();
        let obj = repo.find_object(c, None).unwrap();
        // libgit2 writes the message as given; git (and lane) end it with a newline.
        let theirs = repo
            .tag_annotation_create("v1.0.0", &obj, &sig, "v1.0.0 first\n")
            .unwrap();
        assert_eq!(ours, theirs);
    }
}
