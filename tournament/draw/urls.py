from django.urls import path

from . import views

organiser = [
    path("<slug:slug>/draw/", views.DrawView.as_view(), name="draw"),
    path("<slug:slug>/draw/<int:match>/ask/", views.RedrawAskView.as_view(), name="redraw_ask"),
    path("<slug:slug>/draw/<int:match>/answer/", views.RedrawAnswerView.as_view(), name="redraw_answer"),
    path(
        "<slug:slug>/draw/<int:match>/withdraw/", views.RedrawWithdrawView.as_view(), name="redraw_withdraw"
    ),
    path("<slug:slug>/lists/tables/<int:match>/", views.TableListView.as_view(), name="table_list"),
    path("<slug:slug>/lists/seats/", views.SeatListView.as_view(), name="seat_list"),
    path(
        "<slug:slug>/lists/tables/<int:match>.<str:format>",
        views.TableListView.as_view(),
        name="table_list_doc",
    ),
    path("<slug:slug>/lists/seats.<str:format>", views.SeatListView.as_view(), name="seat_list_doc"),
]
