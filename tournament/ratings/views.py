"""The ratings' pages: the ranking and each person's page (public, at the venue and on the mirror), the seeds
by strength and the persons of a championship (the organisers'), a past championship's import (organisers),
and the Comité's persons (merge, split, undo)."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.errors import Refusal
from tournament.models import Championship
from tournament.policy import MERGE_PERSONS, READ_PUBLIC, RUN, RUN_SITE, allowed, guarded
from tournament.refusals import show
from tournament.screens import address, run

from . import history, identity, merging, pages, seeding, skill
from .forms import HistoryForm, MergeForm, SplitForm
from .models import Doubt, Person, PersonChange

# How many merges a link to a merged person's page follows (a merge into a merged person is refused).
HOPS = 20


@allowed(READ_PUBLIC, pk=None)
def ranking(request):
    club = request.GET.get("club", "")
    clubs = pages.clubs()
    if club and club not in dict(clubs):
        club = ""
    found = Paginator(pages.ranking(club), pages.PAGE).get_page(request.GET.get("pagina"))
    start = found.start_index() if found.paginator.count else 0
    return render(
        request,
        "ratings/ranking.html",
        {
            "page": found,
            "rows": [(start + n, rating) for n, rating in enumerate(found.object_list)],
            "clubs": clubs,
            "club": club,
            "ranked_from": pages.RANKED_FROM,
            "k": skill.K,
        },
    )


@allowed(READ_PUBLIC, pk=None)
def person(request, pk):
    found = get_object_or_404(Person, pk=pk)
    for _hop in range(HOPS):
        if found.merged_into_id is None:
            break
        found = found.merged_into
    if found.pk != pk:
        return redirect("ratings:person", found.pk)
    record = pages.record(found)
    ranked = record.rating is not None and record.rating.mesas >= pages.RANKED_FROM
    return render(
        request,
        "ratings/person.html",
        {
            "person": found,
            "record": record,
            "chart": pages.chart(record.points),
            "place": pages.place(record.rating) if ranked else None,
            "ranked_from": pages.RANKED_FROM,
            "k": skill.K,
        },
    )


@allowed(RUN)
def seeds(request, pk):
    """The pairs' strengths and the seeds offered (GET); accepting them (POST)."""
    championship = guarded(request, Championship, pk)
    if request.method == "POST":
        changed = run(request, seeding.accept, championship, by=request.user, address=address(request))
        if changed is not None:
            messages.success(
                request,
                ngettext(
                    "The seeds by strength are the draw's: %(n)d pair changed.",
                    "The seeds by strength are the draw's: %(n)d pairs changed.",
                    changed,
                )
                % {"n": changed},
            )
        return redirect("tournament:seeds", pk)
    table = seeding.strengths(championship)
    return render(
        request,
        "ratings/seeds.html",
        {
            "championship": championship,
            "table": table,
            "drawn": championship.mesas.exists(),
            "differs": any(s.offered != s.pair.seed for s in table),
            "k": skill.K,
        },
    )


@allowed(RUN)
def persons(request, pk):
    """The championship's players and who each is; the identities left to the desk, to answer."""
    championship = guarded(request, Championship, pk)
    pairs = championship.pairs.prefetch_related("players__person").order_by("name")
    return render(
        request,
        "ratings/persons.html",
        {"championship": championship, "doubts": identity.open_doubts(championship), "pairs": pairs},
    )


@allowed(RUN)
@require_POST
def answer(request, pk, doubt_pk):
    doubt = get_object_or_404(Doubt, pk=doubt_pk, player__pair__championship_id=pk)
    same = request.POST.get("same")
    if same not in ("1", "0"):
        return HttpResponseBadRequest(_("Say whether they are the same person."))
    if run(request, identity.resolve, doubt, same == "1", by=request.user, address=address(request)):
        messages.success(
            request, _("Linked to the person already known.") if same == "1" else _("They stay two persons.")
        )
    return redirect("tournament:persons", pk)


@allowed(RUN_SITE)
def history_import(request):
    """A past championship from a CSV of its results: previewed, then imported whole."""
    form = HistoryForm(request.POST or None, request.FILES or None)
    preview, found = None, None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        championship = form.championship()
        try:
            if data["file"]:
                preview = history.read(data["file"].read(), championship.players_per_pair)
            elif data["text"] and "confirm" in request.POST:
                history.save(
                    championship,
                    data["text"],
                    by=request.user,
                    address=address(request),
                    same=identity.confirmed(request.POST.getlist("same")),
                )
                messages.success(
                    request, _("%(championship)s imported with its results.") % {"championship": championship}
                )
                return redirect("tournament:detail", championship.pk)
            elif data["text"]:
                preview = history.check(data["text"], championship.players_per_pair)
            else:
                form.add_error("file", _("Choose a CSV file."))
        except Refusal as refusal:
            show(request, refusal, form, "file")
        if preview is not None and preview.ok:
            found = identity.summary(history.identities(championship, preview))
    return render(
        request,
        "ratings/history_import.html",
        {
            "form": form,
            "preview": preview,
            "identities": found,
            "columns": history.COLUMNS,
            "max_mesas": history.MAX_MESAS,
            "max_kb": history.MAX_BYTES // 1024,
        },
    )


@allowed(MERGE_PERSONS, pk=None)
def committee_persons(request):
    """The Comité's persons: a search by name, and the merges and splits made, to undo."""
    query = request.GET.get("q", "").strip()[:120]
    found = Person.objects.none()
    if query:
        found = (
            Person.objects.filter(merged_into=None)
            .filter(Q(full_name__icontains=query) | Q(club__icontains=query))
            .annotate(championships=Count("players"))
            .order_by("full_name", "pk")[:100]
        )
    changes = PersonChange.objects.select_related("source", "target", "by")[:50]
    return render(request, "ratings/committee_persons.html", {"query": query, "found": found, "changes": changes})


@allowed(MERGE_PERSONS, pk=None)
def committee_person(request, pk):
    """One person for the Comité: its players (to split some off) and a merge with another person."""
    found = get_object_or_404(Person, pk=pk)
    if found.merged_into_id is not None:
        raise Http404(_("This person was merged into another."))
    players = found.players.select_related("pair__championship").order_by("-pair__championship__start_date")
    merge_form = MergeForm(request.POST if "merge" in request.POST else None)
    split_form = SplitForm(request.POST if "split" in request.POST else None, players=players)
    if request.method == "POST":
        if merge_form.is_bound and merge_form.is_valid():
            change = run(
                request,
                merging.merge,
                found,
                merge_form.cleaned_data["other"],
                by=request.user,
                reason=merge_form.cleaned_data["reason"],
                address=address(request),
            )
            if change:
                messages.success(
                    request, _("%(gone)s merged into %(keep)s.") % {"gone": change.source, "keep": change.target}
                )
                return redirect("persons:person", found.pk)
        elif split_form.is_bound and split_form.is_valid():
            change = run(
                request,
                merging.split,
                found,
                [p.pk for p in split_form.cleaned_data["players"]],
                by=request.user,
                reason=split_form.cleaned_data["reason"],
                address=address(request),
            )
            if change:
                messages.success(request, _("A new person has the players split off."))
                return redirect("persons:person", change.target.pk)
    return render(
        request,
        "ratings/committee_person.html",
        {"person": found, "players": players, "merge_form": merge_form, "split_form": split_form},
    )


@allowed(MERGE_PERSONS, pk=None)
@require_POST
def committee_undo(request, pk):
    change = get_object_or_404(PersonChange, pk=pk)
    if run(request, merging.undo, change, by=request.user, address=address(request)):
        messages.success(request, _("The change is undone."))
    return redirect("persons:list")
