"""The workbench: questions asked of rule sets over a grid, above the systems.

:mod:`analysis.workbench.compare` counts two rule sets over the same cells and
gives their exact difference (:func:`~analysis.workbench.compare.compare`);
:mod:`analysis.workbench.solve` answers the reverse question, the value of an
axis or a rule field that meets a target (:func:`~analysis.workbench.solve.solve`).
"""
