#!/usr/bin/python3
"""A stand-in for NIM's download-to-cache, as the start-up tier's image has it on PATH (/opt/nim/bin).

hf:// sources (--model-uri hf://ORG/NAME) are downloaded over the network as huggingface_hub does it: the repository's
commit and files from HF_ENDPOINT (default https://huggingface.co) /api/models/ORG/NAME/revision/main, then each file
from /ORG/NAME/resolve/COMMIT/FILE with HF_TOKEN as a bearer token, through the proxy of HTTPS_PROXY/https_proxy unless
NO_PROXY/no_proxy names the host (Python's urllib, the rules requests applies too), verifying the server with
REQUESTS_CA_BUNDLE when set (requests' variable), else the default store, which SSL_CERT_FILE replaces (OpenSSL). Files
land in HF_HOME/hub in huggingface_hub's layout (models--ORG--NAME/blobs, refs/main, snapshots/COMMIT); --manifest-file
gets the list. A failure prints its cause (a certificate error as Python's ssl module words it) and exits 1.

NGC sources (no --model-uri: the image's own model, --profile/--profiles/--all) are written locally in NGC's cache
layout under NGC_HOME: the stand-in does not model NGC's API.

Test switches, read from the cache directory (NIM_CACHE_PATH/.nim-standin-download/): a file "hold" makes it wait
until a file "release" appears; a file "fail" makes it fail as a refused download does (401, exit 3). Each run appends
its arguments and whether it saw a key to "runs" there.
"""
import json
import os
import ssl
import sys
import time
import urllib.request


def main(argv):
    cache = os.environ.get("NIM_CACHE_PATH", "/opt/nim/.cache")
    control = os.path.join(cache, ".nim-standin-download")
    os.makedirs(control, exist_ok=True)
    keys = [k for k in ("NGC_API_KEY", "HF_TOKEN", "MODELSCOPE_API_TOKEN") if os.environ.get(k)]
    with open(os.path.join(control, "runs"), "a") as f:
        f.write("download-to-cache %s keys=%s\n" % (" ".join(argv), ",".join(keys) or "none"))
    if os.path.exists(os.path.join(control, "hold")):
        print("download-to-cache: downloading ...", flush=True)
        while not os.path.exists(os.path.join(control, "release")):
            time.sleep(0.2)
    if os.path.exists(os.path.join(control, "fail")):
        print("download-to-cache: error: 401 Unauthorized: the registry refused the download", file=sys.stderr, flush=True)
        return 3
    uri = value(argv, "--model-uri")
    if uri and uri.startswith("hf://"):
        return huggingface(uri[len("hf://"):], value(argv, "--manifest-file"))
    if uri:
        print("download-to-cache (stand-in): only hf:// sources are fetched over the network, not " + uri, file=sys.stderr)
        return 2
    return ngc(argv)


def value(argv, flag):
    return argv[argv.index(flag) + 1] if flag in argv and argv.index(flag) + 1 < len(argv) else None


def huggingface(repo, manifest):
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    bundle = os.environ.get("REQUESTS_CA_BUNDLE")
    context = ssl.create_default_context(cafile=bundle) if bundle else ssl.create_default_context()
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))
    token = os.environ.get("HF_TOKEN")

    def get(path):
        request = urllib.request.Request(endpoint + path)
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with opener.open(request, timeout=30) as response:
            return response.read(), response.headers

    print("download-to-cache: fetching %s from %s (proxy: %s; CA bundle: %s)" % (repo, endpoint,
          urllib.request.getproxies().get("https", "none"), bundle or os.environ.get("SSL_CERT_FILE") or "the system store"), flush=True)
    try:
        body, _ = get("/api/models/%s/revision/main" % repo)
        info = json.loads(body)
        commit = info["sha"]
        root = os.path.join(os.environ.get("HF_HUB_CACHE") or os.path.join(os.environ.get("HF_HOME", os.path.join(cache_home(), "huggingface")), "hub"),
                            "models--" + repo.replace("/", "--"))
        files = []
        for sibling in info["siblings"]:
            name = sibling["rfilename"]
            data, headers = get("/%s/resolve/%s/%s" % (repo, commit, name))
            etag = headers.get("ETag", "").strip('"')
            os.makedirs(os.path.join(root, "blobs"), exist_ok=True)
            with open(os.path.join(root, "blobs", etag), "wb") as f:
                f.write(data)
            link = os.path.join(root, "snapshots", commit, name)
            os.makedirs(os.path.dirname(link), exist_ok=True)
            if not os.path.lexists(link):
                os.symlink(os.path.relpath(os.path.join(root, "blobs", etag), os.path.dirname(link)), link)
            files.append({"file": name, "bytes": len(data)})
            print("download-to-cache: %s (%d bytes)" % (name, len(data)), flush=True)
        os.makedirs(os.path.join(root, "refs"), exist_ok=True)
        with open(os.path.join(root, "refs", "main"), "w") as f:
            f.write(commit)
        if manifest:
            with open(manifest, "w") as f:
                json.dump({"model_uri": "hf://" + repo, "commit": commit, "files": files}, f)
    except Exception as e:  # as NIM prints a failed download: its cause, then a non-zero exit
        reason = getattr(e, "reason", e)
        print("download-to-cache: error: cannot download hf://%s: %s" % (repo, reason), file=sys.stderr, flush=True)
        return 1
    print("download-to-cache: hf://%s downloaded (%d files, commit %s)" % (repo, len(files), commit), flush=True)
    return 0


def cache_home():
    return os.path.join(os.environ.get("HOME", "/tmp"), ".cache")


def ngc(argv):
    profiles = [a for a in argv if not a.startswith("--")] or ["all"]
    base = os.path.join(os.environ.get("NGC_HOME", os.path.join(os.environ.get("NIM_CACHE_PATH", "/tmp"), "ngc")), "hub")
    for profile in profiles:
        root = os.path.join(base, "models--nim--standin--" + profile)
        for d in ("blobs", "refs", "snapshots/0"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, "blobs", "weights"), "w") as f:
            f.write("stand-in weights of profile %s\n" % profile)
        with open(os.path.join(root, "refs", "main"), "w") as f:
            f.write("0")
    print("download-to-cache: profiles %s written under %s" % (" ".join(profiles), base), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
