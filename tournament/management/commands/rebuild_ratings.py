"""``manage.py rebuild_ratings``: every rating written again from the results (``tournament.ratings``).

Ratings are derived: rebuilding gives the same figures, so it is safe at any time (the mesas that end
meanwhile wait for it). ``--link`` first links to their persons the players registered before persons
existed (after an upgrade), as the pairs' import does: an uncertain one is left to the desk.
"""

import time

from django.core.management.base import BaseCommand

from tournament.ratings import identity, ratings


class Command(BaseCommand):
    help = "Rebuild every rating from the decided mesas, in the order they ended."

    def add_arguments(self, parser):
        parser.add_argument("--link", action="store_true", help="First link the players who have no person yet.")

    def handle(self, *args, link=False, **options):
        if link:
            self.stdout.write(f"Players linked to their persons: {identity.link_unlinked()}.")
        started = time.perf_counter()
        count = ratings.rebuild()
        self.stdout.write(f"Ratings rebuilt from {count} rated mesas in {time.perf_counter() - started:.2f} s.")
