"""No file in the repository names an IP address that traffic could leave the machine for.

Tests and benchmarks reach only 127.0.0.0/8 and [::1]: a store that hangs is a loopback
listener that never answers, a refused one a closed loopback port (`tests/net_support.py`).
Product code, docs and data hold no other literal address either. The unspecified addresses
(0.0.0.0, ::) are allowed: they are what a server binds to, and Linux delivers traffic sent
to them to the machine itself.
"""

from __future__ import annotations

import ipaddress
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]|\.\d)")
# IPv6 with at least two colons; to tell it from times (20:34:32) and slices (x[a::b]) it
# must parse, hold a letter or "::", and have two groups, one of three hex digits or more.
_IPV6 = re.compile(r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")


def repository_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    return [REPO / name.decode() for name in listed if name and (REPO / name.decode()).is_file()]


def outside_addresses(text: str) -> list[str]:
    """Literal IP addresses in `text` that are neither loopback nor unspecified."""
    found = []
    for match in _IPV4.finditer(text):
        found.append(match.group())
    for match in _IPV6.finditer(text):
        candidate = match.group()
        groups = [group for group in candidate.split(":") if group]
        if (
            ("::" in candidate or any(c.isalpha() for c in candidate))
            and len(groups) >= 2
            and max(len(group) for group in groups) >= 3
        ):
            found.append(candidate)
    outside = []
    for literal in found:
        try:
            address = ipaddress.ip_address(literal)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_unspecified):
            outside.append(literal)
    return outside


# The examples of addresses beyond loopback are put together here, so this file names none.
PRIVATE, DOCUMENTATION, PUBLIC = (
    ".".join(("10", "255", "255", "1")),
    ".".join(("192", "0", "2", "1")),
    ".".join("8888"),
)
LINK_LOCAL, DOCUMENTATION_V6 = "fe80" + "::1", "2001:db8" + "::7"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"AWS_ENDPOINT_URL=http://{PRIVATE}:9", [PRIVATE]),
        (f"probe.connect(('{DOCUMENTATION}', 9))", [DOCUMENTATION]),
        (
            f"host {PUBLIC} and {LINK_LOCAL} and {DOCUMENTATION_V6}",
            [PUBLIC, LINK_LOCAL, DOCUMENTATION_V6],
        ),
        ("http://127.0.0.1:8080 and [::1]:9 and bind 0.0.0.0", []),
        ("torch==2.13.0, version 1.2.3.4.5, at 20:34:32, slice [1:], a::b", []),
    ],
)
def test_the_address_finder(text: str, expected: list[str]) -> None:
    assert outside_addresses(text) == expected


def test_no_file_names_an_address_beyond_loopback() -> None:
    offenders = []
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for literal in outside_addresses(line):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {literal}")
    assert not offenders, "addresses beyond loopback:\n" + "\n".join(offenders)
