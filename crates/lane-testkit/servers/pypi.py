"""pypiserver's WSGI app on a loopback socket this process binds (port 0),
announced once bound, so no port is ever chosen for it by someone else.

`pypi-server run -p 0` binds an ephemeral port too but prints `:0`, so its
caller could not learn the port; here the socket is bound first and its
real port printed. Uploads (`-a update`) need the user of the htpasswd file
written here; downloads need nothing.

Usage: python pypi.py PACKAGES_DIR HTPASSWD USER
       (the password comes in LANE_TESTKIT_PYPI_PASSWORD)
"""

import os
import sys
from wsgiref.simple_server import make_server

import pypiserver
from passlib.apache import HtpasswdFile
from pypiserver.__main__ import WsgiHandler
from pypiserver.config import Config


def main(packages, htpasswd, user):
    h = HtpasswdFile(htpasswd, new=True)
    h.set_password(user, os.environ["LANE_TESTKIT_PYPI_PASSWORD"])
    h.save()
    config = Config.from_args(["run", "-a", "update", "-P", htpasswd, packages])
    app = pypiserver.setup_routes_from_config(pypiserver.app_from_config(config), config)
    # The same server `pypi-server run` picks here (wsgiref, one request at a time).
    server = make_server("127.0.0.1", 0, app, handler_class=WsgiHandler)
    print(f"pypiserver listening on http://127.0.0.1:{server.server_port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:4])
