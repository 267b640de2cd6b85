"""The server's seal key (issue 27, item 5): an Ed25519 key that signs every seal of a signed
scoresheet. It lives in a file beside the secret key (``SEAL_KEY_FILE``, by default
``.seal_key`` in the project folder, readable by its owner only, ignored by git), made on first
use; never in the database, an export or a backup. Its public key is shown on the site, written
into every export and printed on the signed sheets, so that anybody can check a seal with it."""

from __future__ import annotations

import functools
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

KEY_HEX = 64  # a public key: 32 bytes
SIGNATURE_HEX = 128  # a signature: 64 bytes

_loaded: dict[str, Ed25519PrivateKey] = {}


def key_path() -> Path:
    return Path(settings.SEAL_KEY_FILE)


def _make(path: Path) -> None:
    """A new key written whole under a name of its own, then linked to ``path``: of several
    processes starting at once, one key wins and all read it."""
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "wb") as file:
        file.write(pem)
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()


def private_key() -> Ed25519PrivateKey:
    """This server's seal key, made on first use."""
    path = key_path()
    key = _loaded.get(str(path))
    if key is not None:
        return key
    try:
        if not path.exists():
            _make(path)
        loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError) as error:
        raise ImproperlyConfigured(f"SEAL_KEY_FILE {path}: {error}") from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"SEAL_KEY_FILE {path}: not an Ed25519 key")
    _loaded[str(path)] = loaded
    return loaded


def public_key() -> str:
    """This server's public seal key, 64 hexadecimal digits."""
    raw = private_key().public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def spaced(key: str) -> str:
    """A key as people compare it: groups of eight digits."""
    return " ".join(key[i : i + 8] for i in range(0, len(key), 8))


def sign(message: bytes) -> str:
    return private_key().sign(message).hex()


@functools.lru_cache(maxsize=8192)
def valid(key: str, signature: str, message: bytes) -> bool:
    """Whether ``signature`` (hex) is the signature of ``message`` by the public ``key`` (hex).
    Remembered: the board checks every seal on every look."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True
