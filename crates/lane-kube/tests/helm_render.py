"""Renders and lints charts/lane with helm-python-sdk (Helm's Go library,
no helm binary) for one values set, and writes every rendered manifest as
its own file under OUT_DIR for kubernetes-validate, and the rendered
NOTES.txt, when there is one, as OUT_DIR/PREFIX.NOTES.txt.

usage: helm_render.py CHART_DIR VALUES_JSON OUT_DIR PREFIX
Exits non-zero on a lint error or warning (strict) or a render error.
"""

import json
import os
import sys

import helm_python as helm

chart_dir, values_json, out_dir, prefix = sys.argv[1:5]
values = json.loads(values_json)

for kube_version in ("v1.30.0", None):
    report = helm.lint(chart_dir, values, strict=True, namespace="mint", kube_version=kube_version)
    bad = [m for m in report.get("messages") or [] if m.get("severity", 0) >= 2]
    if bad or report.get("errors"):
        print(json.dumps(report, indent=2))
        sys.exit(1)

chart = helm.Chart.load(chart_dir)
chart.validate_schema(values)
manifests = chart.render(values, name="lane", namespace="mint", is_install=True)
n = 0
for path, text in sorted(manifests.items()):
    if os.path.basename(path) == "NOTES.txt":
        with open(os.path.join(out_dir, f"{prefix}.NOTES.txt"), "w") as f:
            f.write(text)
        continue
    if not path.endswith(".yaml") or not text.strip():
        continue
    for doc in text.split("\n---"):
        if doc.strip() and any(l.strip() and not l.lstrip().startswith("#") for l in doc.splitlines()):
            n += 1
            with open(os.path.join(out_dir, f"{prefix}-{n}-{os.path.basename(path)}"), "w") as f:
                f.write(doc)
print(n)
