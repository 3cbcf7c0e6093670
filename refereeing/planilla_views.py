from django.http import HttpResponse


def verify_form(request):
    return HttpResponse()


def verify(request, code):
    return HttpResponse()
