"""``{{ user|person }}``, ``{{ championship.ruleset_profile|profile }}``: the one name of each thing (``tournament.naming``).

A mesa needs no filter: ``{{ mesa }}`` is its name.
"""

from django import template

from tournament import naming

register = template.Library()

register.filter("person", naming.person_name)
register.filter("profile", naming.profile_name)
