"""The mirror's pages, cacheable by any HTTP cache in front of its app servers.

A public page is the same for every visitor of one language, and the
streams (served apart, ``no-store``) keep it live: a cache may serve it for
a few seconds and revalidate behind. So is a 404 (an unknown address, a
planilla code the mirror does not hold yet): kept as briefly, it is asked
again once the replication may have brought the row. A server error is
never kept (another app server may answer). Nothing with a cookie of its
own or a page that says how to cache itself is touched.

Several app servers render the same bytes for the same page, so the
validator is the page's own digest (an ETag), not a time or a server's:
a cache revalidating with any of them gets its 304.
"""

from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers, set_response_etag

FRESH_SECONDS = 5
STALE_SECONDS = 30


class PublicCache:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method not in ("GET", "HEAD") or response.cookies or response.has_header("Cache-Control"):
            return response
        if response.status_code >= 500:
            patch_cache_control(response, no_store=True)
            return response
        patch_cache_control(response, public=True, max_age=FRESH_SECONDS, stale_while_revalidate=STALE_SECONDS)
        # The language comes from the Accept-Language header or the language cookie.
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        if response.status_code == 200 and not response.streaming:
            set_response_etag(response)
            return get_conditional_response(request, etag=response["ETag"], response=response)
        return response
