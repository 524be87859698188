"""Ray's own start-up port check, run for a list of head ports without starting anything.

For each port, runs the real `ray start --head --port <port>` command of the installed Ray (its click command, in this
process, with every other option at its default), up to the point where a node would start: Ray's Node is replaced by
one that runs Ray's own check of the ports it assembled (RayParams.update_pre_selected_port, which raises
"Ray component <name> is trying to use a port number <port> that is used by other components") and then stops. Prints
one JSON object: port -> "ok", or "refused: <Ray's message>", or "error: <what else happened>".
Usage: python ray-port-check.py '[6379, 8265]'
"""
import json
import os
import sys
import tempfile

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray._private.node as ray_node  # noqa: E402
from ray.scripts.scripts import start  # noqa: E402


class ParamsChecked(Exception):
    pass


def checked_node(self, ray_params, *args, **kwargs):
    ray_params.update_pre_selected_port()
    raise ParamsChecked()


ray_node.Node.__init__ = checked_node

results = {}
for port in json.loads(sys.argv[1]):
    temp_dir = tempfile.mkdtemp(prefix="ray-port-check-")
    try:
        start.main(["--head", "--port", str(port), "--node-ip-address", "127.0.0.1", "--temp-dir", temp_dir,
                    "--num-cpus", "1", "--disable-usage-stats"], standalone_mode=False)
        results[str(port)] = "error: ray start returned without reaching its node"
    except ParamsChecked:
        results[str(port)] = "ok"
    except ValueError as e:
        results[str(port)] = "refused: " + " ".join(str(e).split())
    except BaseException as e:  # noqa: B036 (click's SystemExit included)
        results[str(port)] = "error: %s: %s" % (type(e).__name__, " ".join(str(e).split()))
print(json.dumps(results))
