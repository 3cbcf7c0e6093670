"""``{% may "act" target as name %}``: whether the page's reader may do an act, asked of the one policy
(``tournament.policy``), so that a template shows a link only to whom its page lets in."""

from django import template
from django.db.models import Model

from tournament import policy

register = template.Library()


@register.simple_tag(takes_context=True)
def may(context: template.Context, act: str, target: Model | None = None) -> bool:
    request = context.get("request")
    return request is not None and policy.may(request, act, target)
