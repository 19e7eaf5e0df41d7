#!/usr/bin/env python3
"""Builds the dynapage wheel with nothing but the standard library (no PyPI, no build backend): a wheel is a zip of
the package and a .dist-info (PEP 427). The static binary goes in as dynapage/bin/dynapage, executable.

    python3 packaging/python/build_wheel.py VERSION BINARY LICENSE OUT_DIR

The platform tags say what the binary needs: an x86-64 Linux kernel, no C library of a particular version (it is
static), so glibc systems from manylinux2014 on and musl ones alike.
"""

import base64
import hashlib
import os
import sys
import zipfile

TAG = "py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["__init__.py", "__main__.py", "pytest_plugin.py"]
# A fixed time for every entry, so that the same inputs give the same wheel.
DATE = (2026, 1, 1, 0, 0, 0)


def metadata(version):
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (f"Metadata-Version: 2.1\nName: dynapage\nVersion: {version}\n"
            "Summary: A local DynamoDB in one static binary, with a pytest plugin\n"
            "License: Apache-2.0\nRequires-Python: >=3.8\nProvides-Extra: boto3\n"
            "Requires-Dist: boto3; extra == \"boto3\"\nClassifier: Framework :: Pytest\n"
            "Description-Content-Type: text/markdown\n\n" + readme)


def main(version, binary, license_path, out_dir):
    info = f"dynapage-{version}.dist-info"
    files = []  # (name in the wheel, bytes, mode)
    for name in SOURCES:
        with open(os.path.join(HERE, "dynapage", name), "rb") as f:
            files.append((f"dynapage/{name}", f.read(), 0o644))
    with open(binary, "rb") as f:
        files.append(("dynapage/bin/dynapage", f.read(), 0o755))
    with open(license_path, "rb") as f:
        files.append((f"{info}/LICENSE", f.read(), 0o644))
    files.append((f"{info}/METADATA", metadata(version).encode(), 0o644))
    files.append((f"{info}/WHEEL", wheel_file().encode(), 0o644))
    files.append((f"{info}/entry_points.txt",
                  b"[console_scripts]\ndynapage = dynapage.__main__:main\n\n[pytest11]\ndynapage = dynapage.pytest_plugin\n",
                  0o644))
    record = []
    for name, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"dynapage-{version}-{TAG}.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, DATE)
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    print(path)


def wheel_file():
    platforms = TAG.split("-")[2].split(".")
    tags = "".join(f"Tag: py3-none-{p}\n" for p in platforms)
    return f"Wheel-Version: 1.0\nGenerator: dynapage build_wheel.py\nRoot-Is-Purelib: false\n{tags}"


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
