"""The venue's own certificate authority and the server's certificate, for HTTPS on a local network.

A venue's LAN has no public name, so no public certificate. Over plain HTTP
the browsers allow the juez's screen no service worker, and a reload
without network loses the board. So the server makes a certificate
authority of its own (``ca.pem``, kept ten years) and signs with it the
server's certificate (``server.pem``), whose names are the machine's LAN
addresses and host names. Each tablet trusts ``ca.pem`` once (downloaded
from ``/ca.crt``); every certificate the CA signs later, for a new address,
is then trusted too.

The CA is installed on every tablet, so it vouches for the venue's own
network and nothing else: critical Name Constraints permit only the
private and link-local addresses (``PRIVATE_NETWORKS``), the names under
``.local``, ``.lan`` and ``.internal``, and the names without a dot given
when it was made (``localhost``, the machine's own). A public name or
address is refused (:class:`PublicName`): with the CA's key, no one could
make a certificate for another site that a tablet would take.

``ensure()`` is idempotent: the CA is made once and kept (made again, to
be installed again, when it is one of before its constraints); the
server's certificate is made again only when it lacks one of the names
asked for, was not signed by this CA, or has less than a month left. The keys are
written readable by their owner only (0600). ECDSA P-256 keys: what every
tablet's browser takes, and quick to make. The server's certificate lasts
825 days, the most Apple's devices take from a CA they were told to trust.
"""

import datetime
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_NAME = "Mesa de Control: autoridad de la sede"
# The server's subject: not a host name, which OpenSSL would check against the name constraints (a CN such as
# 127.0.0.1 looks like one, and is no DNS name the constraints permit); its names are in its alternative names.
SERVER_NAME = "Mesa de Control: servidor de la sede"
CA_DAYS = 3650
SERVER_DAYS = 825
RENEW_BEFORE = datetime.timedelta(days=30)
MAX_NAMES = 64
FILES = {"ca": "ca.pem", "ca_key": "ca.key", "cert": "server.pem", "key": "server.key"}


# What the venue's authority may vouch for (see above).
PRIVATE_NETWORKS = [
    ipaddress.ip_network(network)
    for network in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
    )
]
LOCAL_DOMAINS = ("local", "lan", "internal")


class BadName(ValueError):
    """A name that is neither a host name nor an IP address (``args[0]``), or too many names (``args[0]`` None)."""


class PublicName(BadName):
    """A public name or address (``args[0]``): the venue's authority vouches for none."""


class NotPermitted(BadName):
    """A name outside what the venue's authority was made for (``args[0]``); ``args[1]``: what it permits."""


@dataclass
class Result:
    ca_made: bool
    cert_made: bool
    names: list
    ca_fingerprint: str
    # The authority kept before was one of before its name constraints: this is a new one, to install again.
    ca_replaced: bool = False


def is_private(name):
    """Whether the checked ``name`` (:func:`clean_names`) is of the venue's own network: a private or link-local
    address, a name under ``.local``, ``.lan`` or ``.internal``, or a name without a dot."""
    if not _is_address(name):
        return "." not in name or name.rsplit(".", 1)[1] in LOCAL_DOMAINS
    return any(ipaddress.ip_address(name) in network for network in PRIVATE_NETWORKS)


def private_names(names):
    """The checked ``names``, or :class:`PublicName` for the first that is public."""
    for name in names:
        if not is_private(name):
            raise PublicName(name)
    return names


def lan_names():
    """This machine's names and addresses as tablets on its network may reach it.

    The host name (and its ``.local`` for mDNS), every address it resolves
    to, and the address of the interface that routes to a private network
    (a UDP socket's ``connect`` sends nothing, it only picks the route);
    ``localhost`` and 127.0.0.1 for the server's own checks.
    """
    names = ["localhost", "127.0.0.1"]
    host = socket.gethostname()
    if host:
        names += [host, host.split(".")[0] + ".local"]
        try:
            names += [info[4][0] for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)]
        except OSError:
            pass
    for target in ("10.255.255.255", "192.168.255.255"):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect((target, 9))
            names.append(probe.getsockname()[0])
        except OSError:
            pass
        finally:
            probe.close()
    return clean_names(names)


def clean_names(names):
    """The names, checked and in order, each once: an IP address, or a DNS name (no wildcard, no scheme, no port)."""
    seen = []
    for name in names:
        name = str(name).strip().lower().rstrip(".")
        try:
            name = str(ipaddress.ip_address(name.split("%")[0]))
        except ValueError:
            if not name or len(name) > 253 or not all(_label_ok(label) for label in name.split(".")):
                raise BadName(name) from None
        if name not in seen:
            seen.append(name)
    if len(seen) > MAX_NAMES:
        raise BadName(None)
    return seen


def _label_ok(label):
    return 0 < len(label) <= 63 and label.isascii() and label.replace("-", "").isalnum() and label[0] != "-"


def _san(names):
    entries = []
    for name in names:
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            entries.append(x509.DNSName(name))
    return x509.SubjectAlternativeName(entries)


def _names_of(cert):
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))


def _write(path, data, private):
    """Write whole or not at all (a temporary file renamed), a key readable by its owner only from its creation."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


def _key_pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def fingerprint(cert):
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def _constraints(names):
    """The CA's Name Constraints: the private networks, the local domains, and ``names`` without a dot."""
    single = [name for name in names if "." not in name and not _is_address(name)]
    permitted = [x509.IPAddress(network) for network in PRIVATE_NETWORKS]
    permitted += [x509.DNSName(name) for name in (*LOCAL_DOMAINS, *single)]
    return x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None)


def _is_address(name):
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _permitted(ca):
    """What ``ca`` may vouch for: its Name Constraints' permitted subtrees, or None when it has none."""
    try:
        return ca.extensions.get_extension_for_class(x509.NameConstraints).value.permitted_subtrees
    except x509.ExtensionNotFound:
        return None


def _permits(permitted, name):
    if _is_address(name):
        address = ipaddress.ip_address(name)
        return any(isinstance(s, x509.IPAddress) and address in s.value for s in permitted)
    return any(isinstance(s, x509.DNSName) and (name == s.value or name.endswith("." + s.value)) for s in permitted)


def _make_ca(folder, names, now):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CA_NAME)])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_constraints(names), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write(folder / FILES["ca_key"], _key_pem(key), private=True)
    _write(folder / FILES["ca"], cert.public_bytes(serialization.Encoding.PEM), private=False)
    return cert, key


def _make_server(folder, ca, ca_key, names, now):
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SERVER_NAME)]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(min(now + datetime.timedelta(days=SERVER_DAYS), ca.not_valid_after_utc))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=False,
                crl_sign=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(_san(names), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write(folder / FILES["key"], _key_pem(key), private=True)
    # The chain the tablets need: the server's certificate, then the CA's.
    _write(
        folder / FILES["cert"],
        cert.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM),
        private=False,
    )


def _current_server(folder, ca, names, now):
    """The server's certificate kept, if it names every name, was signed by ``ca`` and lasts a month more."""
    path = folder / FILES["cert"]
    if not (path.exists() and (folder / FILES["key"]).exists()):
        return None
    try:
        cert = x509.load_pem_x509_certificate(path.read_bytes())
        cert.verify_directly_issued_by(ca)
        covers = set(names) <= _names_of(cert)
    except (ValueError, TypeError, x509.ExtensionNotFound, InvalidSignature):
        return None
    return cert if covers and cert.not_valid_after_utc - now > RENEW_BEFORE else None


def ensure(folder, names, now=None):
    """Make what is missing in ``folder`` for serving HTTPS under ``names``; keep what is still good.

    Raises :class:`PublicName` for a public name, and :class:`NotPermitted` for a name the authority kept was
    not made for (a new name without a dot): a new authority is made by removing it, then installed again on
    every tablet.
    """
    names = private_names(clean_names(names))
    if not names:
        raise BadName(None)
    now = now or datetime.datetime.now(datetime.UTC)
    folder = Path(folder)
    ca_path, ca_key_path = folder / FILES["ca"], folder / FILES["ca_key"]
    ca, replaced = None, False
    if ca_path.exists() and ca_key_path.exists():
        ca = x509.load_pem_x509_certificate(ca_path.read_bytes())
        permitted = _permitted(ca)
        if permitted is None:
            ca, replaced = None, True
        else:
            outside = [name for name in names if not _permits(permitted, name)]
            if outside:
                raise NotPermitted(outside[0], [str(s.value) for s in permitted])
            ca_key = serialization.load_pem_private_key(ca_key_path.read_bytes(), password=None)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    ca_made = ca is None
    if ca_made:
        ca, ca_key = _make_ca(folder, names, now)
    cert_made = _current_server(folder, ca, names, now) is None
    if cert_made:
        _make_server(folder, ca, ca_key, names, now)
    return Result(ca_made, cert_made, names, fingerprint(ca), replaced)
