from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The apps whose saves change what the streams show connect them to ``live.notify`` themselves
    (``TournamentConfig.ready``, ``RefereeingConfig.ready``): live knows nothing of who speaks."""

    name = "live"
