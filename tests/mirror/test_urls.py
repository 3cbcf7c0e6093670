"""The mirror's URLs (#27.2): every path keeps its name, and only the public ones have their view."""

from django.urls import URLPattern, URLResolver

from config import urls_mirror


def _patterns(patterns, namespace=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(
                pattern.url_patterns, namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            )
        else:
            yield f"{namespace}{pattern.name}", pattern


def test_only_the_public_pages_are_mounted_on_the_mirror():
    mounted = dict(_patterns(urls_mirror.urlpatterns))
    public = {name for name, pattern in mounted.items() if pattern.callback is not urls_mirror.not_on_mirror}
    assert public == urls_mirror.PUBLIC | {"set_language"}
    for name in ("login", "admin:index", "api:claims", "tournament:board", "refereeing:mesa_screen", "audit:trail"):
        assert mounted[name].callback is urls_mirror.not_on_mirror, name
    assert all(isinstance(p, URLPattern) for p in mounted.values())
