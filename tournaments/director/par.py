"""Par analysis of the boards (issue 33): each board's analysis and its state, a re-run or a
cancel (each one service call, ``tournaments.par.services``)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.director.helpers import attempt, tournament_or_404
from tournaments.director.signin import director_required
from tournaments.models import Board, BoardPar
from tournaments.par.analysis import PAR_PROFILES
from tournaments.par.services import par_cancel, par_rerun


@director_required
def par_boards(request: HttpRequest, slug: str) -> HttpResponse:
    """Every board of the tournament with its analysis (directors see it whether or not the
    board is released: it is stored only once it is)."""
    tournament = tournament_or_404(slug)
    boards = list(Board.objects.filter(tournament=tournament).order_by("number"))
    rows = {row.board_id: row for row in BoardPar.objects.filter(board__in=boards)}
    context = {
        "tournament": tournament,
        "analysed": tournament.rule_profile in PAR_PROFILES,
        "rows": [(board, rows.get(board.pk)) for board in boards],
    }
    return render(request, "director/par.html", context)


@director_required
@require_POST
def par_board_action(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """``action`` rerun or cancel."""
    tournament = tournament_or_404(slug)
    board = Board.objects.filter(tournament=tournament, number=number).first()
    if board is None:
        raise Http404("No such board.")
    action = request.POST.get("action")
    if action == "rerun":
        attempt(
            request,
            lambda: par_rerun(board=board, user=request.user),
            _("Analysis of board %(number)s queued.") % {"number": number},
        )
    elif action == "cancel":
        attempt(
            request,
            lambda: par_cancel(board=board, user=request.user),
            _("Analysis of board %(number)s cancelled.") % {"number": number},
        )
    else:
        raise Http404("No such action.")
    return redirect("director:par", slug=slug)
