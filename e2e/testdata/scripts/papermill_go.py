"""papermill with a parameter translator for Go notebooks.

papermill (2.7) has no translator for Go, so `papermill -p ...` refuses a
notebook whose kernel is sbir ("No parameter translator functions specified
for kernel 'sbir' or language 'go'"). This script registers one, then runs
papermill's own command line, so every papermill option works:

    python papermill_go.py in.ipynb out.ipynb -p year 2015 -p agency 'Agência' \
        -y '{phases: [Phase I, Phase II], caps: {NASA: 1.5}}'

The injected cell declares each parameter with `var NAME = VALUE`, as
papermill's Python translator rebinds names: the type comes from the value
(-p minAmount 150000 is an int; write 150000.0 for a float64). Values are
written as Go literals by inject_go_parameters.go_literal: strings keep every
character, lists and maps become []T / map[string]T when their elements
share a type ([]any / map[string]any otherwise), null becomes `any(nil)`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from papermill.translators import Translator, papermill_translators  # noqa: E402

import inject_go_parameters  # noqa: E402


class GoTranslator(Translator):
    @classmethod
    def translate(cls, val):
        if val is None:
            return "any(nil)"
        return inject_go_parameters.go_literal(val)

    @classmethod
    def comment(cls, cmt_str):
        return f"// {cmt_str}".strip()

    @classmethod
    def assign(cls, name, str_val):
        return f"var {name} = {str_val}"


papermill_translators.register("go", GoTranslator)

if __name__ == "__main__":
    from papermill.cli import papermill

    papermill(prog_name="papermill")
