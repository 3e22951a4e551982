"""Addresses a class can open: whether a host is this computer only (loopback), this
computer's address on its network, and an app address typed or configured by the teacher.
Pure Python, shared by the poll page and ``scripts/serve.py``.

>>> is_loopback("localhost"), is_loopback("127.0.0.2"), is_loopback("[::1]"), is_loopback("192.168.1.20")
(True, True, True, False)
>>> public_base("192.168.1.20:8080/"), public_base("https://class.example.org/ranklab")
(('http', '192.168.1.20:8080', ''), ('https', 'class.example.org', '/ranklab'))
>>> public_base("ftp://x"), public_base("http://host:port"), public_base("http://a b")
(None, None, None)
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

__all__ = ["is_loopback", "network_address", "public_base", "PUBLIC_ENV"]

PUBLIC_ENV = "RANKLAB_PUBLIC_URL"  # the address students open, when the server knows it better


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` names this computer only (no other device can open it)."""
    if not host:
        return True
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This computer's IPv4 address on its network (the interface it would reach others by),
    or None when it has only a loopback one. No packet is sent: a UDP socket only picks a route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def public_base(text: object) -> tuple[str, str, str] | None:
    """``(scheme, host[:port], path)`` of an app address typed or configured (``http://`` is
    assumed when no scheme is given), or None when it is not an http(s) address."""
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        return None
    text = text.strip()
    parts = urlsplit(text if "://" in text else f"http://{text}")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(ch.isspace() for ch in parts.netloc):
        return None
    return parts.scheme, parts.netloc, parts.path.rstrip("/")
