"""The bare endpoint's table: one row per request, the JSON it was sent."""

from django.db import models


class BareRow(models.Model):
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"row {self.pk}"
