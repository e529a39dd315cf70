#!/usr/bin/env python3
"""Runs every `curl` example of README.md and docs/*.md against a live service, as a reader
would paste it, and checks that each answers 200 (GraphQL answers also without errors).

Usage: scripts/check_examples.py BASE_URL [API_KEY]

The examples are written for http://127.0.0.1:8080; that address is replaced by BASE_URL.
`$MDS_KEY` in an example is the API_KEY given. Each example runs in a scratch directory
(some write files), through bash, exactly as written otherwise.
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCUMENTED = "http://127.0.0.1:8080"


def examples(path):
    """The curl commands of a Markdown file's sh code blocks, continuation lines joined."""
    in_block = False
    pending = None
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("```"):
            in_block = line.strip() in ("```sh", "```bash", "```shell")
            pending = None
            continue
        if not in_block:
            continue
        if pending is None and not line.startswith("curl "):
            continue
        pending = (number, line) if pending is None else (pending[0], pending[1] + "\n" + line)
        # Complete once every quote is closed and the line does not continue.
        if strip_comment(pending[1]).count("'") % 2 == 0 and not line.rstrip().endswith("\\"):
            yield pending
            pending = None


def strip_comment(command):
    """The command without a trailing `# comment` outside quotes."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or command[i - 1] in " \t"):
            return command[:i].rstrip()
    return command


def main():
    base = sys.argv[1].rstrip("/")
    key = sys.argv[2] if len(sys.argv) > 2 else ""
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    failures, ran = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for path in files:
            for number, command in examples(path):
                where = f"{path.relative_to(ROOT)}:{number}"
                runnable = strip_comment(command).replace(DOCUMENTED, base)
                runnable += " -w '\\n__STATUS__%{http_code}'"
                done = subprocess.run(
                    ["bash", "-c", runnable],
                    cwd=scratch,
                    env={**os.environ, "MDS_KEY": key},
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                ran += 1
                out = done.stdout
                status = out.rsplit("__STATUS__", 1)[-1].strip() if "__STATUS__" in out else ""
                body = out.rsplit("__STATUS__", 1)[0]
                problem = None
                if done.returncode != 0:
                    problem = f"curl exited {done.returncode}: {done.stderr.strip()[:300]}"
                elif status != "200":
                    problem = f"status {status}: {body.strip()[:300]}"
                elif "/graphql" in command and '"errors"' in body:
                    problem = f"GraphQL errors: {body.strip()[:300]}"
                if problem:
                    failures.append(f"{where}: {problem}\n    {command}")
    for f in failures:
        print(f"FAIL {f}")
    passed = ran - len(failures)
    print(f"examples: {passed} passed, {len(failures)} failed")
    if ran < 15:
        print("too few examples found: the extractor is broken")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
