/*
 * The path spellings the Python package prints:
 *   relpath   os.path.relpath(path): relative to the current directory,
 *             lexically normalised ("a/./b/../c" -> "a/c"), "." for the cwd;
 *   resolve   Path(path).resolve(): absolute with symbolic links resolved
 *             (for a path that no longer exists: absolute and normalised);
 *   shlex     shlex.quote(s): unchanged when it only holds [A-Za-z0-9_@%+=:,./-],
 *             else in single quotes with ' written as '"'"'.
 * Each returns a malloc'ed string (NULL when out of memory).
 */
#ifndef SP_PRESENT_PY_PATH_H
#define SP_PRESENT_PY_PATH_H

char *sp_py_relpath(const char *path);
char *sp_py_resolve(const char *path);
char *sp_py_shlex_quote(const char *s);

/* The absolute, lexically normalised form of path against cwd. */
char *sp_py_abspath_in(const char *path, const char *cwd);
/* relpath of path against the directory start (both made absolute against cwd). */
char *sp_py_relpath_in(const char *path, const char *start, const char *cwd);

#endif
