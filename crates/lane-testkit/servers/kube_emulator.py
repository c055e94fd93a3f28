"""kmock's KubernetesEmulator on a loopback port, with the thin wrapper that
kube-rs's watcher needs (issue 7):

- every created or patched object gets `metadata.resourceVersion` (a global
  counter), and a created one `uid`, `creationTimestamp` and `namespace`;
- LIST answers with the current resourceVersion, and LIST and WATCH honour
  an equality `labelSelector` (`k=v,k2=v2`);
- 404s answer `reason: NotFound` and 409s `reason: AlreadyExists`, as a real
  API server does.

Two test hooks (not API server behaviour; each says what it stands in for):

- KMOCK_CREATE_DELAY_S=0.5 delays every create (a slow API server, so a
  test can kill lane between creates);
- `PUT /testkit/v1/namespaces/<ns>/pods/<pod>/log` (a text body): the
  container's output, as a kubelet keeps it. `GET
  /api/v1/namespaces/<ns>/pods/<pod>/log` then answers it as text (honouring
  `tailLines` and `limitBytes`, as the API server does), and a pod with no
  output handed over answers 400 "container is waiting to start", never
  the Pod's JSON;
- KMOCK_EXPIRE_FILE=PATH: while PATH exists, every WATCH ends at its next
  event with an `ERROR` event carrying a `410 Expired` Status (what an API
  server sends when the watch's resourceVersion fell out of its window)
  instead of that event, so clients see changes only by relisting.

KMOCK_REQUEST_LOG=PATH appends one line per request the server answers:
`<unix time> <user agent> <METHOD> <path>?<query>` (the benchmark counts
lane's own: kube-rs's user agent).

It binds a port of its own (kmock's server on port 0) and announces it on
stdout, `kube emulator listening on http://127.0.0.1:PORT`, once bound.

Usage: python kube_emulator.py [PORT_FILE]   (PORT_FILE also gets the port,
       written atomically: the benchmark `thousand_jobs.py` reads it)
"""

import asyncio
import datetime
import itertools
import json
import os
import re
import sys
import time
import uuid

import aiohttp.web
import kmock

_rv = itertools.count(1)
_CREATE_DELAY_S = float(os.environ.get("KMOCK_CREATE_DELAY_S") or 0)
_EXPIRE_FILE = os.environ.get("KMOCK_EXPIRE_FILE") or None
_REQUEST_LOG = open(os.environ["KMOCK_REQUEST_LOG"], "a", buffering=1) if os.environ.get("KMOCK_REQUEST_LOG") else None
_EXPIRED = {
    "type": "ERROR",
    "object": {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "too old resource version",
        "reason": "Expired",
        "code": 410,
    },
}


_LOG_PATH = re.compile(r"^/(api|testkit)/v1/namespaces/([^/]+)/pods/([^/]+)/log$")
_logs = {}


def _status(code, reason, message):
    body = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": code}
    return aiohttp.web.Response(status=code, text=json.dumps(body), content_type="application/json")


async def _pod_log(raw_request, match):
    """The pod log subresource (see the module documentation)."""
    api, ns, pod = match.groups()
    if api == "testkit":
        if raw_request.method != "PUT":
            return _status(405, "MethodNotAllowed", "PUT the container's output")
        _logs[(ns, pod)] = (await raw_request.read()).decode("utf-8", "replace")
        return aiohttp.web.Response(status=200, text="")
    if raw_request.method != "GET":
        return _status(405, "MethodNotAllowed", "the log is read with GET")
    text = _logs.get((ns, pod))
    if text is None:
        return _status(400, "BadRequest",
                       f'container "mint" in pod "{pod}" is waiting to start: ContainerCreating')
    q = raw_request.query
    if q.get("tailLines"):
        lines = text.splitlines(keepends=True)
        text = "".join(lines[-int(q["tailLines"]):]) if int(q["tailLines"]) > 0 else ""
    data = text.encode("utf-8")
    if q.get("limitBytes"):
        data = data[: int(q["limitBytes"])]
    return aiohttp.web.Response(status=200, body=data, content_type="text/plain")


def _selector(request):
    sel = (request.params or {}).get("labelSelector") or ""
    pairs = []
    for part in filter(None, sel.split(",")):
        k, _, v = part.partition("=")
        pairs.append((k.strip(), v.lstrip("=").strip()))
    return pairs


def _matches(obj, pairs):
    labels = ((obj or {}).get("metadata") or {}).get("labels") or {}
    return all(labels.get(k) == v for k, v in pairs)


class Emulator(kmock.KubernetesEmulator):
    async def __call__(self, raw_request):
        if _REQUEST_LOG is not None:
            agent = raw_request.headers.get("User-Agent", "-").split()[0] or "-"
            _REQUEST_LOG.write(
                f"{time.time():.6f} {agent} {raw_request.method} {raw_request.path_qs}\n"
            )
        match = _LOG_PATH.match(raw_request.path)
        if match:
            return await _pod_log(raw_request, match)
        return await super().__call__(raw_request)

    async def _handle(self, request):
        if request.resource is not None and isinstance(request.data, dict):
            meta = request.data.setdefault("metadata", {})
            if request.action == kmock.action.CREATE:
                meta.setdefault("uid", str(uuid.uuid4()))
                meta.setdefault(
                    "creationTimestamp",
                    datetime.datetime.now(tz=datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                )
                if request.namespace:
                    meta.setdefault("namespace", request.namespace)
                meta["resourceVersion"] = str(next(_rv))
            elif request.action == kmock.action.UPDATE:
                meta["resourceVersion"] = str(next(_rv))
        if request.action == kmock.action.CREATE and _CREATE_DELAY_S:
            # A slow API server, so that a test can kill lane between creates.
            await asyncio.sleep(_CREATE_DELAY_S)
        return await super()._handle(request)

    async def _serve_list(self, request):
        out = await super()._serve_list(request)
        pairs = _selector(request)
        out["items"] = [o for o in out["items"] if _matches(o, pairs)]
        out["metadata"] = {"resourceVersion": str(next(_rv))}
        return out

    async def _serve_watch(self, request):
        pairs = _selector(request)
        async for event in super()._serve_watch(request):
            if isinstance(event, dict) and not _matches(event.get("object"), pairs):
                continue
            if isinstance(event, dict) and _EXPIRE_FILE and os.path.exists(_EXPIRE_FILE):
                yield _EXPIRED
                return
            yield event

    async def _render_error(self, exc):
        if isinstance(exc, kmock.KubernetesNotFoundError):
            exc = kmock.KubernetesError(status=404, reason="NotFound", message=exc.message)
        elif isinstance(exc, kmock.KubernetesError) and exc.status == 409:
            exc = kmock.KubernetesError(status=409, reason="AlreadyExists", message=exc.message)
        return await super()._render_error(exc)


async def main(port_file):
    async with Emulator() as emu, kmock.Server(emu) as srv:
        emu.resources["batch/v1/jobs"] = {}
        emu.resources["v1/pods"] = {}
        if port_file:
            with open(port_file + ".tmp", "w") as f:
                f.write(str(srv.port))
            os.replace(port_file + ".tmp", port_file)
        print(f"kube emulator listening on http://127.0.0.1:{srv.port}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else None))
