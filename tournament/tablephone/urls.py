from django.urls import path

from . import supervisor_views, views

# The table's phone, by its code: no tournament in the address, the code says which sheet.
table = [
    path("", views.enter_code, name="enter"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("<str:code>/", views.sheet_page, name="sheet"),
    path("<str:code>/part", views.sheet_part, name="part"),
    path("<str:code>/send", views.send, name="send"),
]
referee = [
    path("<slug:slug>/calls/", supervisor_views.CallsView.as_view(), name="calls"),
    path("<slug:slug>/calls/<int:call>/", supervisor_views.AnswerCallView.as_view(), name="answer_call"),
    path(
        "<slug:slug>/match/<int:match>/table/<int:table>/renew",
        supervisor_views.RenewView.as_view(),
        name="renew_code",
    ),
]
