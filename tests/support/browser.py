"""What the browser tests share: signing in through the form, sixteen pairs' names, waiting for the page's state."""

import time

NAMES = [
    "Los Ases",
    "Sota y Caballo",
    "Caída y Limpia",
    "Las Reinas de Guano",
    "Doble Ronda",
    "Los Zapateros",
    "Los Tantos",
    "Escalera Real",
    "Las Comadres",
    "Los Chagras",
    "Los Panas",
    "Los Runas",
    "La Data",
    "Los Cuarentones",
    "Los Morlacos",
    "Los Guayacos",
]


def sign_in(page, live_server, username, to, password="cuarenta"):
    page.goto(live_server.url + "/cuenta/entrar/?next=" + to)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")


def until(page, expression, seconds=15):
    """Wait until ``expression`` (JavaScript; a promise is awaited) is true in the page. Not wait_for_function: it
    evaluates its string again with eval in the page, which the Content Security Policy refuses, so it failed
    whenever the first look came too soon (a service worker not yet in control, on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true in the page: {expression}"
        page.wait_for_timeout(200)
