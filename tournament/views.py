from django.shortcuts import render

from .models import Tournament


def home(request):
    """The tournaments on this installation, newest first."""
    tournaments = Tournament.objects.all()
    return render(request, "public/home.html", {"tournaments": tournaments})
