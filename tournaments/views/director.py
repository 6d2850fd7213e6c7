from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors


@staff_member_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Director (staff) overview of every tournament, public or not."""
    tournaments = selectors.tournament_list_for_director()
    return render(request, "director/dashboard.html", {"tournaments": tournaments})
