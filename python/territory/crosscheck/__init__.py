"""The cross-check kit (docs/crosscheck.md): test vectors of the rules' edge cases
(:mod:`territory.crosscheck.vectors`), a line-based JSON protocol to drive another
implementation (:mod:`territory.crosscheck.protocol`), the step-by-step comparison and
shrinking (:mod:`territory.crosscheck.driver`), and an example engine over the
pure-Python reference (:mod:`territory.crosscheck.adapter`). ``territory perft``,
``territory vectors`` and ``territory crosscheck`` are its commands. Not imported by
``import territory``.
"""
