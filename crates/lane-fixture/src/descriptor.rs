//! The `worker_scheduler` protocol, described once and rendered twice: as the
//! `.proto` source and as the serialized `FileDescriptorProto` that protoc
//! embeds in the generated Python bindings. Both take the protobuf package,
//! which is what the wire-v1 cut changes.

/// A scalar field type, with its `.proto` spelling and descriptor number.
#[derive(Clone, Copy)]
enum Ty {
    String,
    Int64,
    Uint32,
    Bool,
    Double,
}

impl Ty {
    fn proto(self) -> &'static str {
        match self {
            Ty::String => "string",
            Ty::Int64 => "int64",
            Ty::Uint32 => "uint32",
            Ty::Bool => "bool",
            Ty::Double => "double",
        }
    }

    /// `FieldDescriptorProto.Type`.
    fn number(self) -> u64 {
        match self {
            Ty::Double => 1,
            Ty::Int64 => 3,
            Ty::Bool => 8,
            Ty::String => 9,
            Ty::Uint32 => 13,
        }
    }
}

struct Field {
    name: &'static str,
    json: &'static str,
    ty: Ty,
    repeated: bool,
}

struct Message {
    name: &'static str,
    doc: &'static str,
    fields: &'static [Field],
}

struct Method {
    name: &'static str,
    input: &'static str,
    output: &'static str,
    server_streaming: bool,
}

const fn f(name: &'static str, json: &'static str, ty: Ty) -> Field {
    Field {
        name,
        json,
        ty,
        repeated: false,
    }
}

const MESSAGES: &[Message] = &[
    Message {
        name: "WorkerHello",
        doc: "First message on a connection: who the worker is and what it can mint.",
        fields: &[
            f("worker_id", "workerId", Ty::String),
            f("worker_version", "workerVersion", Ty::String),
            Field {
                name: "gpu_classes",
                json: "gpuClasses",
                ty: Ty::String,
                repeated: true,
            },
        ],
    },
    Message {
        name: "Heartbeat",
        doc: "Sent while a mint runs; `phase` names the frame the child is in.",
        fields: &[
            f("worker_id", "workerId", Ty::String),
            f("phase", "phase", Ty::String),
            f("at_unix_ms", "atUnixMs", Ty::Int64),
        ],
    },
    Message {
        name: "MintRequest",
        doc: "The scheduler asks for one cell to be minted.",
        fields: &[
            f("cell", "cell", Ty::String),
            f("recipe", "recipe", Ty::String),
            f("cold_repeats", "coldRepeats", Ty::Uint32),
        ],
    },
    Message {
        name: "MintResult",
        doc: "What a mint produced.",
        fields: &[
            f("cell", "cell", Ty::String),
            f("deterministic", "deterministic", Ty::Bool),
            f("compile_s", "compileS", Ty::Double),
        ],
    },
    Message {
        name: "Ack",
        doc: "Nothing to say back.",
        fields: &[],
    },
];

const SERVICE: &str = "WorkerScheduler";

const METHODS: &[Method] = &[
    Method {
        name: "Connect",
        input: "WorkerHello",
        output: "MintRequest",
        server_streaming: true,
    },
    Method {
        name: "Beat",
        input: "Heartbeat",
        output: "Ack",
        server_streaming: false,
    },
    Method {
        name: "Report",
        input: "MintResult",
        output: "Ack",
        server_streaming: false,
    },
];

/// The file name protoc records in the descriptor and the bindings.
pub(crate) const PROTO_FILE: &str = "worker_scheduler.proto";

/// `proto/worker_scheduler.proto` declaring `package <package>;`.
pub(crate) fn proto_source(package: &str) -> String {
    let mut out = String::from(
        "// The contract between a gen-worker and the cozy scheduler.\n\
         // Regenerate src/gen_worker/pb/ with `make proto` after editing; PROTO_DIGEST pins this file.\n\
         syntax = \"proto3\";\n\n",
    );
    out.push_str(&format!("package {package};\n"));
    for message in MESSAGES {
        out.push_str(&format!(
            "\n// {}\nmessage {} {{",
            message.doc, message.name
        ));
        if message.fields.is_empty() {
            out.push_str("}\n");
            continue;
        }
        out.push('\n');
        for (number, field) in message.fields.iter().enumerate() {
            let label = if field.repeated { "repeated " } else { "" };
            out.push_str(&format!(
                "  {label}{} {} = {};\n",
                field.ty.proto(),
                field.name,
                number + 1
            ));
        }
        out.push_str("}\n");
    }
    out.push_str(&format!("\nservice {SERVICE} {{\n"));
    for method in METHODS {
        let stream = if method.server_streaming {
            "stream "
        } else {
            ""
        };
        out.push_str(&format!(
            "  rpc {}({}) returns ({stream}{});\n",
            method.name, method.input, method.output
        ));
    }
    out.push_str("}\n");
    out
}

/// A serialized `FileDescriptorProto` and where each top-level message and
/// the service sit in it (protoc's `_serialized_start`/`_serialized_end`).
pub(crate) struct Serialized {
    pub(crate) bytes: Vec<u8>,
    pub(crate) spans: Vec<(String, usize, usize)>,
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a length-delimited field and returns where its payload starts.
fn bytes_field(out: &mut Vec<u8>, number: u64, payload: &[u8]) -> usize {
    varint(out, number << 3 | 2);
    varint(out, payload.len() as u64);
    let start = out.len();
    out.extend_from_slice(payload);
    start
}

fn varint_field(out: &mut Vec<u8>, number: u64, value: u64) {
    varint(out, number << 3);
    varint(out, value);
}

/// The descriptor protoc would embed for [`proto_source`] with `package`.
pub(crate) fn serialized(package: &str) -> Serialized {
    let mut file = Vec::new();
    let mut spans = Vec::new();
    bytes_field(&mut file, 1, PROTO_FILE.as_bytes());
    bytes_field(&mut file, 2, package.as_bytes());
    for message in MESSAGES {
        let mut body = Vec::new();
        bytes_field(&mut body, 1, message.name.as_bytes());
        for (number, field) in message.fields.iter().enumerate() {
            let mut fd = Vec::new();
            bytes_field(&mut fd, 1, field.name.as_bytes());
            varint_field(&mut fd, 3, number as u64 + 1);
            varint_field(&mut fd, 4, if field.repeated { 3 } else { 1 });
            varint_field(&mut fd, 5, field.ty.number());
            bytes_field(&mut fd, 10, field.json.as_bytes());
            bytes_field(&mut body, 2, &fd);
        }
        let start = bytes_field(&mut file, 4, &body);
        spans.push((message.name.to_uppercase(), start, start + body.len()));
    }
    let mut service = Vec::new();
    bytes_field(&mut service, 1, SERVICE.as_bytes());
    for method in METHODS {
        let mut md = Vec::new();
        bytes_field(&mut md, 1, method.name.as_bytes());
        bytes_field(
            &mut md,
            2,
            format!(".{package}.{}", method.input).as_bytes(),
        );
        bytes_field(
            &mut md,
            3,
            format!(".{package}.{}", method.output).as_bytes(),
        );
        if method.server_streaming {
            varint_field(&mut md, 6, 1);
        }
        bytes_field(&mut service, 2, &md);
    }
    let start = bytes_field(&mut file, 6, &service);
    spans.push((SERVICE.to_uppercase(), start, start + service.len()));
    bytes_field(&mut file, 12, b"proto3");
    Serialized { bytes: file, spans }
}

/// `bytes` as a Python bytes literal body, escaped the way protoc does.
pub(crate) fn python_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\'"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proto_declares_the_package_and_every_message() {
        let text = proto_source("cozy.scheduler");
        assert!(text.contains("\npackage cozy.scheduler;\n"));
        for message in MESSAGES {
            assert!(text.contains(&format!("message {} {{", message.name)));
        }
        assert!(text.contains("rpc Connect(WorkerHello) returns (stream MintRequest);"));
        assert!(proto_source("cozy.scheduler.v1").contains("\npackage cozy.scheduler.v1;\n"));
    }

    #[test]
    fn descriptor_starts_like_protoc_output() {
        let pre = serialized("cozy.scheduler");
        let rendered = python_bytes(&pre.bytes);
        assert!(rendered.starts_with("\\n\\x16worker_scheduler.proto\\x12\\x0ecozy.scheduler\\\""));
        assert!(rendered.ends_with("b\\x06proto3"));
        assert!(rendered.contains(".cozy.scheduler.WorkerHello"));
        let v1 = serialized("cozy.scheduler.v1");
        assert!(python_bytes(&v1.bytes).contains("\\x12\\x11cozy.scheduler.v1"));
        assert_eq!(pre.spans.len(), MESSAGES.len() + 1);
        for (name, start, end) in &pre.spans {
            assert!(start < end && *end <= pre.bytes.len(), "{name}");
        }
    }

    #[test]
    fn varints_use_continuation_bits() {
        let mut out = Vec::new();
        varint(&mut out, 300);
        assert_eq!(out, [0xac, 0x02]);
    }
}
