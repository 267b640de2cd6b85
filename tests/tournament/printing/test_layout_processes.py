"""The processes that lay out a match's PDF in parts, forked from the job worker."""

import signal
from multiprocessing import get_context

from tournament.printing import pdf


def _default_handlers() -> bool:
    return signal.getsignal(signal.SIGTERM) == signal.getsignal(signal.SIGINT) == signal.SIG_DFL


def _note(*_args):  # as the job worker's handler: remember the signal, go on
    pass


def test_a_layout_process_stops_on_sigterm_though_the_worker_only_notes_it():
    """The job worker (django-tasks) answers SIGTERM by finishing its task first; a forked
    layout process that kept that handler ignored the pool's terminate, and the PostgreSQL pass
    hung in Pool.terminate waiting for it."""
    previous = signal.signal(signal.SIGTERM, _note), signal.signal(signal.SIGINT, _note)
    try:
        pool = get_context("fork").Pool(1, pdf._plain_signals)
        assert pool.apply(_default_handlers)
        pool.close()
        pool.join()
        pool = get_context("fork").Pool(1)  # without it, the child keeps the worker's handlers
        assert not pool.apply(_default_handlers)
        pool.close()
        pool.join()
    finally:
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
