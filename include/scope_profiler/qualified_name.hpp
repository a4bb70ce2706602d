/*
 * qualified_name.hpp: turns a compiler's function signature
 * (__PRETTY_FUNCTION__) into a qualified name without return type and
 * parameters, with template arguments filled in:
 *
 *     "void ns::Solver::solve(int) const"        -> "ns::Solver::solve"
 *     "T ns::f(T) [with T = int]" (GCC)          -> "ns::f<int>"
 *     "T ns::f(T) [T = int]" (Clang)             -> "ns::f<int>"
 *     "void ns::Box<T>::get() [with T = double]" -> "ns::Box<double>::get"
 *
 * Used by SP_CXX_FUNCTION() once per call site; part of scope_profiler.hpp.
 */
#ifndef SCOPE_PROFILER_QUALIFIED_NAME_HPP
#define SCOPE_PROFILER_QUALIFIED_NAME_HPP

#include <scope_profiler.h>

#include <cstddef>
#include <string>
#include <vector>

#if defined(__GNUC__)
#define SP_INTERNAL_SIGNATURE_ __PRETTY_FUNCTION__
#else
#define SP_INTERNAL_SIGNATURE_ __func__
#endif

namespace scope_profiler {
namespace detail {

inline bool is_space(char c) noexcept {
    return c == ' ' || c == '\t';
}

inline std::string trimmed(const std::string &s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_space(s[b]))
        b++;
    while (e > b && is_space(s[e - 1]))
        e--;
    return s.substr(b, e - b);
}

/* Splits at top-level separators (not inside <>, (), [] or {}). */
inline std::vector<std::string> split_top(const std::string &s, const char *separators) {
    std::vector<std::string> parts;
    int depth = 0;
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); i++) {
        char c = s[i];
        if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
        if (c == '>' || c == ')' || c == ']' || c == '}') depth--;
        if (depth == 0 && std::string(separators).find(c) != std::string::npos) {
            parts.push_back(trimmed(s.substr(from, i - from)));
            from = i + 1;
        }
    }
    parts.push_back(trimmed(s.substr(from)));
    return parts;
}

inline void replace_all(std::string &s, const std::string &from, const std::string &to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

struct template_binding {
    std::string name, value;
    bool used;
};

/* "with T = int; int N = 3" (GCC) or "T = int, N = 3" (Clang). */
inline std::vector<template_binding> parse_bindings(std::string text) {
    std::vector<template_binding> out;
    if (text.compare(0, 5, "with ") == 0) text = text.substr(5);
    for (const std::string &part : split_top(text, ";,")) {
        std::size_t eq = part.find(" = ");
        if (eq == std::string::npos) continue;
        std::string lhs = trimmed(part.substr(0, eq));
        std::size_t space = lhs.find_last_of(' ');
        template_binding b;
        b.name = space == std::string::npos ? lhs : lhs.substr(space + 1);
        b.value = trimmed(part.substr(eq + 3));
        if (b.value.size() >= 2 && b.value.front() == '{' && b.value.back() == '}')
            b.value = b.value.substr(1, b.value.size() - 2); /* a GCC parameter pack */
        b.used = false;
        out.push_back(b);
    }
    return out;
}

/* Index of the bracket opening the one closing at `close`, scanning back. */
inline std::size_t match_back(const std::string &s, std::size_t close, char open_c, char close_c) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
        if (s[i] == close_c) depth++;
        if (s[i] == open_c && --depth == 0) return i;
    }
    return std::string::npos;
}

/* Fills template parameters into the name's argument lists (GCC names keep
 * "Box<T>"), marks those Clang already filled in ("Box<double>"), and
 * returns the bindings left over: the function's own template arguments. */
inline std::string fill_templates(std::string name, std::vector<template_binding> &bindings) {
    std::string out;
    std::vector<std::string> filled; /* arguments already in the name, as text */
    std::size_t i = 0;
    while (i < name.size()) {
        if (name[i] != '<') {
            out += name[i++];
            continue;
        }
        int depth = 0;
        std::size_t j = i;
        for (; j < name.size(); j++) {
            if (name[j] == '<') depth++;
            if (name[j] == '>' && --depth == 0) break;
        }
        std::vector<std::string> args = split_top(name.substr(i + 1, j - i - 1), ",");
        out += '<';
        for (std::size_t a = 0; a < args.size(); a++) {
            std::string arg = args[a];
            bool substituted = false;
            for (template_binding &b : bindings)
                if (!b.used && arg == b.name) {
                    arg = b.value;
                    b.used = substituted = true;
                    break;
                }
            if (!substituted) filled.push_back(arg);
            out += (a ? ", " : "") + arg;
        }
        out += '>';
        i = j + 1;
    }
    for (template_binding &b : bindings) {
        if (b.used) continue;
        for (std::string &f : filled)
            if (f == b.value) {
                f.clear(); /* one argument accounts for one binding */
                b.used = true;
                break;
            }
    }
    return out;
}

/** The qualified name of a function from its signature (see the top of this file);
 *  a lambda's name carries its line when one is given ("main::<lambda@42>"), so
 *  two lambdas of one function are two regions. */
inline std::string qualified_name(const char *signature, int line = -1) {
    std::string s = signature ? signature : "";
    replace_all(s, "(anonymous namespace)", "{anonymous}");
    std::vector<template_binding> bindings;
    if (!s.empty() && s.back() == ']') {
        std::size_t open = match_back(s, s.size() - 1, '[', ']');
        if (open != std::string::npos && open > 0 && s[open - 1] == ' ') {
            bindings = parse_bindings(s.substr(open + 1, s.size() - open - 2));
            s = trimmed(s.substr(0, open));
        }
    }
    /* A lambda: named after the function it is in ("main::<lambda@42>"). */
    std::size_t lambda = s.find("::<lambda");                                            /* GCC */
    if (lambda == std::string::npos) lambda = s.find("::(anonymous class)::operator()"); /* Clang */
    if (lambda != std::string::npos && lambda > 0)
        return qualified_name(s.substr(0, lambda).c_str()) +
               (line >= 0 ? "::<lambda@" + std::to_string(line) + ">" : "::<lambda>");
    std::size_t close = s.find_last_of(')');
    if (close == std::string::npos) return s; /* __func__ or something unexpected */
    std::size_t open = match_back(s, close, '(', ')');
    if (open == std::string::npos || open == 0) return s;
    /* A function returning a function pointer, "int (*getfp())(int)": the
     * name and its parameter list are inside the parentheses. */
    while (open > 1 && s[open - 1] == ')' &&
           !(open >= 11 && s.compare(open - 10, 10, "operator()") == 0)) {
        std::size_t inner_open = match_back(s, open - 1, '(', ')');
        if (inner_open == std::string::npos) return s;
        s = s.substr(inner_open + 1, open - inner_open - 2);
        close = s.find_last_of(')');
        if (close == std::string::npos) return s;
        open = match_back(s, close, '(', ')');
        if (open == std::string::npos || open == 0) return s;
    }
    /* Walk back over the name: identifiers, "::", "~", balanced <> or {}, and
     * "operator()" (whose own "()" precedes the parameter list). */
    std::size_t end = open;
    std::size_t begin = end;
    while (begin > 0) {
        char c = s[begin - 1];
        if (c == '>' || c == '}') {
            std::size_t m = match_back(s, begin - 1, c == '>' ? '<' : '{', c);
            if (m == std::string::npos) break;
            begin = m;
        } else if (c == ')' && begin >= 10 && s.compare(begin - 10, 10, "operator()") == 0) {
            begin -= 10;
        } else if (is_space(c) || c == '*' || c == '&' || c == '(' || c == ')') {
            break;
        } else {
            begin--;
        }
    }
    std::string name = s.substr(begin, end - begin);
    if (name.empty()) return s;
    name = fill_templates(name, bindings);
    std::string own;
    for (const template_binding &b : bindings)
        if (!b.used) own += (own.empty() ? "" : ", ") + b.value;
    if (!own.empty()) name += "<" + own + ">";
    return name;
}

/** The handle of the region named after a signature's qualified name. */
inline sp_region_t qualified_region(const char *signature, const char *file, int line) noexcept {
#ifndef SP_DISABLE
    try {
        return sp_region_at(qualified_name(signature, line).c_str(), file, line);
    } catch (...) { /* out of memory: the signature itself is a usable name */
        return sp_region_at(signature, file, line);
    }
#else
    (void)signature;
    (void)file;
    (void)line;
    return SP_REGION_NONE;
#endif
}

} // namespace detail
} // namespace scope_profiler

#endif
