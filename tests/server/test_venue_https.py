"""HTTPS on the venue's own network (issue 24, point 6; README, "HTTPS at the venue").

``manage.py venue_certificate`` makes the venue's certificate authority once
and the server's certificate for the LAN's names, again only when one is
missing or it is about to expire; ``/ca.crt`` hands the authority to the
tablets; gunicorn serves HTTPS with it (``TLS_DIR``); and Chromium, trusting
that authority, keeps the juez's screen across a reload without network
through the service worker, which plain HTTP does not allow.
"""

import base64
import datetime
import hashlib
import io
import ipaddress
import ssl
import stat
import urllib.request
import uuid

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509 import verification
from django.core.management import CommandError, call_command
from playwright.sync_api import expect

from config import venue_tls
from refereeing.claimlog.log import record_claim
from refereeing.models import ClaimEntry
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.browser import until
from tests.support.production import ROOT, production_server, set_production_password

PASSWORD = "sota-caballo-rey"


def certificate(folder, name="server.pem"):
    return x509.load_pem_x509_certificate((folder / name).read_bytes())


def names_of(cert):
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))


def files(folder):
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_the_command_makes_the_authority_and_a_certificate_for_the_lan_once(settings, tmp_path):
    settings.TLS_DIR = tmp_path / "tls"
    settings.ALLOWED_HOSTS = ["mesa.local", "*.example.org", "192.168.1.10"]
    call_command(
        "venue_certificate", "--host", "sede-riobamba.lan", "--host", "10.0.0.7", stdout=(out := io.StringIO())
    )
    folder = settings.TLS_DIR
    assert "Se creó la autoridad de certificación de la sede" in out.getvalue() and "Huella SHA-256" in out.getvalue()
    ca, server = certificate(folder, "ca.pem"), certificate(folder)
    # The server's certificate is the authority's, for the names asked, this machine's own and ALLOWED_HOSTS'
    # (never a wildcard), for serving only; the authority signs certificates and nothing else.
    server.verify_directly_issued_by(ca)
    assert {"sede-riobamba.lan", "10.0.0.7", "mesa.local", "192.168.1.10", "localhost", "127.0.0.1"} <= names_of(server)
    assert not any("*" in name for name in names_of(server))
    assert all(name in names_of(server) for name in venue_tls.lan_names() if venue_tls.is_private(name))
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert not server.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    usages = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usages) == [x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]
    # The server's file holds the chain the tablets check: its certificate, then the authority's.
    assert (folder / "server.pem").read_bytes().endswith((folder / "ca.pem").read_bytes())
    # The keys are readable by their owner only, the folder too.
    for key in ("ca.key", "server.key"):
        assert stat.S_IMODE((folder / key).stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700

    # Run again (each `make serve` does): nothing is made again, not a byte changes.
    before = files(folder)
    call_command(
        "venue_certificate", "--host", "sede-riobamba.lan", "--host", "10.0.0.7", stdout=(out := io.StringIO())
    )
    assert "Se conserva la autoridad de certificación de la sede" in out.getvalue()
    assert "Se conserva el certificado del servidor" in out.getvalue()
    assert files(folder) == before


def test_a_new_name_or_an_ending_certificate_gets_a_new_one_from_the_same_authority(tmp_path):
    first = venue_tls.ensure(tmp_path, ["mesa.local", "192.168.1.10"])
    assert first.ca_made and first.cert_made
    ca_files = {name: (tmp_path / name).read_bytes() for name in ("ca.pem", "ca.key")}
    old = certificate(tmp_path)
    # A name the certificate lacks (the venue's router gave another address): a new certificate, same authority,
    # so tablets that trust it need nothing new.
    again = venue_tls.ensure(tmp_path, ["mesa.local", "192.168.1.23"])
    assert not again.ca_made and again.cert_made and again.ca_fingerprint == first.ca_fingerprint
    new = certificate(tmp_path)
    assert new.serial_number != old.serial_number and "192.168.1.23" in names_of(new)
    new.verify_directly_issued_by(certificate(tmp_path, "ca.pem"))
    assert {name: (tmp_path / name).read_bytes() for name in ("ca.pem", "ca.key")} == ca_files
    # A month before it ends, it is made again.
    late = new.not_valid_after_utc - datetime.timedelta(days=20)
    assert venue_tls.ensure(tmp_path, ["mesa.local"], now=late).cert_made
    assert not venue_tls.ensure(tmp_path, ["mesa.local"], now=late).cert_made
    # A certificate some other authority signed is replaced.
    other = tmp_path / "other"
    venue_tls.ensure(other, ["mesa.local"])
    (tmp_path / "server.pem").write_bytes((other / "server.pem").read_bytes())
    assert venue_tls.ensure(tmp_path, ["mesa.local"]).cert_made


@pytest.mark.parametrize(
    "name", ["https://mesa.local", "mesa.local:8443", "*.local", "mesa..local", "-mesa.local", "a" * 64 + ".lan", ""]
)
def test_what_is_not_a_host_name_or_address_is_refused(settings, tmp_path, name):
    settings.TLS_DIR = tmp_path / "tls"
    with pytest.raises(CommandError, match="No es un nombre de equipo ni una dirección IP"):
        call_command("venue_certificate", "--no-lan", "--host", "mesa.local", f"--host={name}", stdout=io.StringIO())
    assert not settings.TLS_DIR.exists()


def constraints(ca):
    extension = ca.extensions.get_extension_for_class(x509.NameConstraints)
    return extension.critical, extension.value


def verifier(folder, name):
    """A TLS client's check of a server certificate for ``name``, trusting the venue's authority alone."""
    store = verification.Store([certificate(folder, "ca.pem")])
    subject = verification.IPAddress(ipaddress.ip_address(name)) if name[0].isdigit() else verification.DNSName(name)
    return verification.PolicyBuilder().store(store).build_server_verifier(subject)


def forged(folder, name):
    """A certificate for ``name`` signed with the authority's own key, as whoever took it from the server could."""
    ca = certificate(folder, "ca.pem")
    key = serialization.load_pem_private_key((folder / "ca.key").read_bytes(), password=None)
    leaf = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    general = x509.IPAddress(ipaddress.ip_address(name)) if name[0].isdigit() else x509.DNSName(name)
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, name)]))
        .issuer_name(ca.subject)
        .public_key(leaf.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([general]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )


def handshake(folder, name):
    """A TLS handshake in memory between the server's certificate and a client that trusts the authority (OpenSSL,
    as Python's and the tablets' own checks are), asking for ``name``; an ``ssl.SSLError`` when refused."""
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(folder / "server.pem", folder / "server.key")
    client_side = ssl.create_default_context(cafile=folder / "ca.pem")
    client_in, client_out, server_in, server_out = (ssl.MemoryBIO() for _ in range(4))
    client = client_side.wrap_bio(client_in, client_out, server_hostname=name)
    server = server_side.wrap_bio(server_in, server_out, server_side=True)
    done = set()
    while len(done) < 2:
        for end in (client, server):
            try:
                end.do_handshake()
                done.add(end)
            except ssl.SSLWantReadError:
                pass
        server_in.write(client_out.read())
        client_in.write(server_out.read())


def test_the_authority_vouches_for_the_venues_network_only(settings, tmp_path):
    """Issue 33: the authority every tablet trusts was CA:TRUE for ten years with no name constraints."""
    settings.TLS_DIR = folder = tmp_path / "tls"
    settings.ALLOWED_HOSTS = []
    call_command("venue_certificate", "--no-lan", "--host", "192.168.1.10", "--host", "sede", stdout=io.StringIO())
    critical, value = constraints(certificate(folder, "ca.pem"))
    assert critical and value.excluded_subtrees is None
    permitted = {str(s.value) for s in value.permitted_subtrees}
    assert permitted == {
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
        "local",
        "lan",
        "internal",
        "sede",
    }
    # A client that trusts the authority takes the server's certificate, for each of its names...
    server = certificate(folder)
    for name in ("sede", "192.168.1.10"):
        verifier(folder, name).verify(server, [])
        handshake(folder, name)
    # With addresses alone (no DNS name), OpenSSL checks the subject's name against the constraints as a host name.
    venue_tls.ensure(tmp_path / "addresses", ["10.0.0.7"])
    handshake(tmp_path / "addresses", "10.0.0.7")
    # ...and refuses one for a public site made with the authority's own key, which name constraints forbid.
    for name in ("www.google.com", "8.8.8.8", "sede.example.org"):
        with pytest.raises(verification.VerificationError):
            verifier(folder, name).verify(forged(folder, name), [])
    for name in ("mesa.local", "10.1.2.3", "caja.lan"):
        verifier(folder, name).verify(forged(folder, name), [])


@pytest.mark.parametrize("name", ["www.google.com", "8.8.8.8", "2001:4860:4860::8888", "mesa.example.org"])
def test_a_public_host_is_refused_with_its_reason(settings, tmp_path, name):
    settings.TLS_DIR = tmp_path / "tls"
    with pytest.raises(CommandError, match="es un nombre o una dirección pública"):
        call_command("venue_certificate", "--host", "mesa.local", f"--host={name}", stdout=io.StringIO())
    assert not settings.TLS_DIR.exists()
    with pytest.raises(venue_tls.PublicName):
        venue_tls.ensure(tmp_path / "direct", [name])


def test_the_public_names_of_allowed_hosts_are_left_out_saying_so(settings, tmp_path):
    settings.TLS_DIR = tmp_path / "tls"
    settings.ALLOWED_HOSTS = ["mesa.local", "resultados.example.org"]
    call_command("venue_certificate", "--no-lan", stdout=(out := io.StringIO()))
    assert "Se dejan fuera, por ser públicos: resultados.example.org" in out.getvalue()
    assert names_of(certificate(settings.TLS_DIR)) == {"mesa.local"}


def test_an_authority_of_before_its_constraints_is_replaced_and_a_name_outside_them_refused(settings, tmp_path):
    settings.TLS_DIR = folder = tmp_path / "tls"
    venue_tls.ensure(folder, ["mesa.local"])
    old = certificate(folder, "ca.pem")
    key = serialization.load_pem_private_key((folder / "ca.key").read_bytes(), password=None)
    unconstrained = (
        x509.CertificateBuilder()
        .subject_name(old.subject)
        .issuer_name(old.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(old.not_valid_before_utc)
        .not_valid_after(old.not_valid_after_utc)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "ca.pem").write_bytes(unconstrained.public_bytes(serialization.Encoding.PEM))
    call_command("venue_certificate", "--no-lan", "--host", "mesa.local", stdout=(out := io.StringIO()))
    assert "Instálela de nuevo en cada tableta" in out.getvalue()
    assert constraints(certificate(folder, "ca.pem"))[0]
    certificate(folder).verify_directly_issued_by(certificate(folder, "ca.pem"))
    # A name without a dot it was not made for: refused, saying how to make a new one.
    with pytest.raises(CommandError, match="no para otra-caja"):
        call_command("venue_certificate", "--no-lan", "--host", "otra-caja", stdout=io.StringIO())


def test_the_tablets_download_the_authority_at_ca_crt(client, settings, tmp_path, db):
    # db: even the refused POST goes through the audit trail's transaction (audit.middleware).
    settings.TLS_DIR = tmp_path
    assert client.get("/ca.crt").status_code == 404  # none made yet
    venue_tls.ensure(tmp_path, ["mesa.local"])
    response = client.get("/ca.crt")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-x509-ca-cert"
    assert "attachment" in response["Content-Disposition"]
    assert response.content == (tmp_path / "ca.pem").read_bytes()
    assert b"PRIVATE KEY" not in response.content
    assert client.post("/ca.crt").status_code == 405


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_over_the_venues_https_the_screen_survives_a_reload_offline(
    people, mesa, production_static, playwright, tmp_path
):
    """gunicorn serves HTTPS with the venue's certificate; Chromium trusting it keeps the screen across a reload."""
    venue_tls.ensure(tmp_path, ["127.0.0.1"])
    juez = people["juez"]
    set_production_password(juez, PASSWORD)
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=juez)
    # The server's key, as Chromium is told to trust it: the tablet's once-installed authority, without touching
    # this machine's certificate store (its SPKI hash, Chromium's own switch for that).
    server_key = certificate(tmp_path).public_key()
    spki = hashlib.sha256(
        server_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    ).digest()
    with production_server(
        production_static, tls_ca=str(tmp_path / "ca.pem"), TLS_DIR=str(tmp_path), ALLOWED_HOSTS="127.0.0.1"
    ) as url:
        assert url.startswith("https://")
        # HTTPS mode: what a browser is told to keep to TLS.
        answer = urllib.request.urlopen(
            url + "/cuenta/entrar/", context=ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
        )
        assert "max-age=" in answer.headers["Strict-Transport-Security"]
        assert "Secure" in answer.headers["Set-Cookie"]
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[*CHROMIUM_ARGS, "--ignore-certificate-errors-spki-list=" + base64.b64encode(spki).decode()],
        )
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, locale="es-EC")
            page = context.new_page()
            page.goto(url + "/cuenta/entrar/")
            page.fill("input[name=username]", juez.username)
            page.fill("input[name=password]", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_url(url + "/")
            page.goto(f"{url}/mesa/{mesa.pk}/")
            expect(page.locator("#st-chica")).to_have_text("1")
            assert page.evaluate("window.isSecureContext") is True
            until(page, "navigator.serviceWorker.controller !== null")
            until(
                page,
                """caches.open('mesa-screen-v1').then(c => c.keys()).then(
                keys => keys.some(k => k.url === location.href) && keys.some(k => k.url.includes('/mesa/main.')))""",
            )
            context.set_offline(True)
            page.tap(".screen [data-claim=caida][data-pair=A]")
            expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 1")
            asked = []
            page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
            page.reload()
            # The board is back from the service worker, with the claim still waiting; nothing was asked.
            expect(page.locator("#st-chica")).to_have_text("1")
            expect(page.locator("#net .net-waiting")).to_have_text("Por enviar: 1")
            expect(page.locator(".pair-card[data-side=A] .score-num")).to_have_text("2")
            assert asked == []
            page.screenshot(path=str(ROOT / "artifacts" / "venue-https-offline-reload.png"))
            context.set_offline(False)
            expect(page.locator("#net .net-waiting")).to_have_count(0)
            context.close()
        finally:
            browser.close()
    assert list(ClaimEntry.objects.filter(mesa=mesa).values_list("kind", flat=True)) == ["mano", "caida"]
