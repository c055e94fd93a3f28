"""buf's own verdicts on small hand-written changes, one or more per rule:
the cases lane-wire's unit tests (rules/mod.rs) hold it to, rules and
messages alike. Run from anywhere after `./just tools`:
    python3 crates/lane-wire/src/rules/record-cases.py
"""
import json, os, subprocess, shutil, tempfile
H3 = 'syntax = "proto3";\npackage p;\n'
H2 = 'syntax = "proto2";\npackage p;\n'
cases = [
 ("field deleted", H3+"message M { int32 a = 1; int32 b = 2; }\n", H3+"message M { int32 a = 1; }\n"),
 ("field deleted, number reserved", H3+"message M { int32 a = 1; int32 b = 2; }\n", H3+"message M { int32 a = 1; reserved 2; }\n"),
 ("field deleted, number and name reserved", H3+"message M { int32 a = 1; int32 b = 2; }\n", H3+"message M { int32 a = 1; reserved 2; reserved \"b\"; }\n"),
 ("field added", H3+"message M { int32 a = 1; }\n", H3+"message M { int32 a = 1; int32 b = 24; }\n"),
 ("number reused for another type", H3+"message M { int32 a = 1; }\n", H3+"message M { string a = 1; }\n"),
 ("int32 to int64", H3+"message M { int32 a = 1; }\n", H3+"message M { int64 a = 1; }\n"),
 ("int32 to uint32", H3+"message M { int32 a = 1; }\n", H3+"message M { uint32 a = 1; }\n"),
 ("string to bytes", H3+"message M { string a = 1; }\n", H3+"message M { bytes a = 1; }\n"),
 ("bytes to string", H3+"message M { bytes a = 1; }\n", H3+"message M { string a = 1; }\n"),
 ("message type renamed", H3+"message A {}\nmessage M { A a = 1; }\n", H3+"message B {}\nmessage M { B a = 1; }\n"),
 ("enum moved to another package name, same values", H3+"enum E { E_0 = 0; }\nmessage M { E e = 1; }\n", H3+"message N { enum E { E_0 = 0; E_1 = 1; } }\nenum E { E_0 = 0; }\nmessage M { N.E e = 1; }\n"),
 ("singular to repeated", H3+"message M { int32 a = 1; }\n", H3+"message M { repeated int32 a = 1; }\n"),
 ("repeated to map", H3+"message E { string key = 1; int32 value = 2; }\nmessage M { repeated E a = 1; }\n", H3+"message E { string key = 1; int32 value = 2; }\nmessage M { map<string, int32> a = 1; }\n"),
 ("implicit to explicit presence", H3+"message M { int32 a = 1; }\n", H3+"message M { optional int32 a = 1; }\n"),
 ("map value type changed", H3+"message M { map<string, int32> a = 1; }\n", H3+"message M { map<string, int64> a = 1; }\n"),
 ("field renamed", H3+"message M { int32 run_attempt = 7; }\n", H3+"message M { int32 attempt = 7; }\n"),
 ("json_name changed", H3+"message M { int32 a = 1; }\n", H3+"message M { int32 a = 1 [json_name = \"b\"]; }\n"),
 ("moved into a oneof", H3+"message M { int32 a = 1; }\n", H3+"message M { oneof o { int32 a = 1; } }\n"),
 ("moved between oneofs", H3+"message M { oneof o { int32 a = 1; } }\n", H3+"message M { oneof q { int32 a = 1; } }\n"),
 ("oneof deleted", H3+"message M { oneof o { int32 a = 1; } int32 b = 2; }\n", H3+"message M { int32 b = 2; }\n"),
 ("enum value deleted", H3+"enum E { E_0 = 0; E_1 = 1; }\n", H3+"enum E { E_0 = 0; }\n"),
 ("enum value deleted, number reserved", H3+"enum E { E_0 = 0; E_1 = 1; }\n", H3+"enum E { E_0 = 0; reserved 1; }\n"),
 ("enum value deleted, name reserved", H3+"enum E { E_0 = 0; E_1 = 1; }\n", H3+"enum E { E_0 = 0; reserved \"E_1\"; }\n"),
 ("enum value renamed", H3+"enum E { E_0 = 0; E_1 = 1; }\n", H3+"enum E { E_0 = 0; E_ONE = 1; }\n"),
 ("enum alias added", H3+"enum E { E_0 = 0; E_1 = 1; }\n", H3+"enum E { option allow_alias = true; E_0 = 0; E_1 = 1; E_ONE = 1; }\n"),
 ("reserved range narrowed", H3+"message M { reserved 2 to 5; reserved \"x\"; }\n", H3+"message M { reserved 2 to 3; }\n"),
 ("enum reserved deleted", H3+"enum E { E_0 = 0; reserved 3; reserved \"E_3\"; }\n", H3+"enum E { E_0 = 0; }\n"),
 ("message deleted", H3+"message M {}\nmessage N {}\n", H3+"message M {}\n"),
 ("nested message deleted", H3+"message M { message I {} }\n", H3+"message M {}\n"),
 ("enum deleted", H3+"enum D { D_0 = 0; }\nenum E { E_0 = 0; }\n", H3+"enum D { D_0 = 0; }\n"),
 ("last enum of a package deleted", H3+"message M {}\nenum E { E_0 = 0; }\n", H3+"message M {}\n"),
 ("message moved to another file", None, None),
 ("service and rpc changes", H3+"message A {}\nmessage B {}\nservice S { rpc One(A) returns (B); rpc Two(A) returns (B); rpc Three(A) returns (B); rpc Four(A) returns (stream B); rpc Five(A) returns (B) { option idempotency_level = NO_SIDE_EFFECTS; } }\n",
                               H3+"message A {}\nmessage B {}\nservice S { rpc One(B) returns (B); rpc Three(stream A) returns (A); rpc Four(A) returns (B); rpc Five(A) returns (B); }\n"),
 ("service deleted", H3+"message A {}\nservice S { rpc One(A) returns (A); }\nservice T {}\n", H3+"message A {}\nservice T {}\n"),
 ("package renamed", H3+"message M {}\n", 'syntax = "proto3";\npackage p.v1;\nmessage M {}\n'),
 ("file options", H3+'option go_package = "x";\noption java_package = "j";\noption cc_enable_arenas = true;\nmessage M {}\n', H3+'option go_package = "y";\noption java_multiple_files = true;\noption cc_enable_arenas = false;\noption csharp_namespace = "C";\noption objc_class_prefix = "O";\noption php_namespace = "P";\noption php_class_prefix = "Q";\noption php_metadata_namespace = "R";\noption ruby_package = "S";\noption swift_prefix = "T";\noption java_outer_classname = "U";\noption optimize_for = LITE_RUNTIME;\noption cc_generic_services = true;\noption java_generic_services = true;\noption py_generic_services = true;\nmessage M {}\n'),
 ("proto2 to proto3", H2+"enum E { E_0 = 0; }\nmessage M { optional string s = 1; optional int32 n = 2 [default = 5]; }\n", H3+"enum E { E_0 = 0; }\nmessage M { string s = 1; int32 n = 2; }\n"),
 ("proto2 defaults and required", H2+"message M { optional int32 n = 1 [default = 5]; required int32 r = 2; optional float f = 3 [default = 0.1]; optional string s = 4 [default = \"a\"]; }\n", H2+"message M { optional int32 n = 1 [default = 6]; optional int32 r = 2; optional double f = 3 [default = 0.1]; optional string s = 4 [default = \"a\"]; required int32 q = 5; }\n"),
 ("proto2 extension ranges and extensions", H2+"message M { extensions 100 to 200; }\nextend M { optional int32 x = 100; optional int32 y = 101; }\n", H2+"message M { extensions 100 to 150; }\nextend M { optional int64 x = 100; }\n"),
 ("field options generated code reads", H2+"option java_string_check_utf8 = false;\nmessage M { optional string s = 1 [ctype = CORD]; optional int64 n = 2; optional string p = 3 [ctype = STRING_PIECE]; optional string q = 4; }\n", H2+"option java_string_check_utf8 = true;\nmessage M { optional string s = 1; optional int64 n = 2 [jstype = JS_STRING]; optional string p = 3; optional string q = 4 [ctype = CORD]; }\n"),
 ("message options", H2+"message M { }\n", H2+"message M { option no_standard_descriptor_accessor = true; }\n"),
 ("group to message", H2+"message M { optional group G = 1 { optional int32 a = 2; } }\n", H2+"message M { message G { optional int32 a = 2; } optional G g = 1; }\n"),
 ("proto3 to proto2", H3+"enum E { E_0 = 0; }\nmessage M { string s = 1; repeated int32 r = 2; }\n", H2+"enum E { E_0 = 0; }\nmessage M { optional string s = 1; repeated int32 r = 2; }\n"),
 ("enum alias removed", H3+"enum E { option allow_alias = true; E_0 = 0; E_1 = 1; E_ONE = 1; }\n", H3+"enum E { E_0 = 0; E_1 = 1; }\n"),
 ("enum value with aliases deleted", H3+"enum E { option allow_alias = true; E_0 = 0; E_1 = 1; E_ONE = 1; }\n", H3+"enum E { E_0 = 0; reserved \"E_1\"; }\n"),
 ("package deleted with its files", None, None),
 ("unchanged", H3+"message M { int32 a = 1; }\n", H3+"message M { int32 a = 1; }\n"),
]
HERE = os.path.dirname(os.path.abspath(__file__))
BUF = os.path.join(HERE, "../../../../.tools/node/node_modules/.bin/buf")
out = []
for name, was, now in cases:
    if name == "message moved to another file":
        files_b = {"a.proto": H3+"message M {}\nmessage N {}\n"}
        files_a = {"a.proto": H3+"message M {}\n", "b.proto": H3+"message N {}\n"}
    elif name == "package deleted with its files":
        files_b = {"a.proto": H3+"message M {}\n", "q/b.proto": 'syntax = "proto3";\npackage q;\nenum E { E_0 = 0; }\n'}
        files_a = {"a.proto": H3+"message M {}\n"}
    else:
        files_b = {"a.proto": was}; files_a = {"a.proto": now}
    d = tempfile.mkdtemp()
    for side, files in (("before", files_b), ("after", files_a)):
        os.makedirs(f"{d}/{side}")
        for p, s in files.items():
            os.makedirs(os.path.dirname(f"{d}/{side}/{p}"), exist_ok=True)
            open(f"{d}/{side}/{p}", "w").write(s)
        open(f"{d}/{side}/buf.yaml", "w").write("version: v2\nbreaking:\n  use: [WIRE, WIRE_JSON, PACKAGE]\n")
    r = subprocess.run([BUF, "breaking", "after", "--against", "before", "--error-format", "json"], cwd=d, capture_output=True, text=True)
    if r.returncode not in (0, 100):
        print("ERR", name, r.stderr); continue
    rules = sorted({json.loads(l)["type"] for l in r.stdout.splitlines()})
    msgs = sorted({json.loads(l)["message"] for l in r.stdout.splitlines()})
    out.append({"name": name, "before": files_b, "after": files_a, "rules": rules, "messages": msgs})
    shutil.rmtree(d)
json.dump(out, open(os.path.join(HERE, "cases.json"), "w"), indent=1)
for c in out: print(c["name"], c["rules"])
