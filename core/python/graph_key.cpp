#include "python/graph_key.h"

#include <cctype>
#include <vector>

#include "base/control_escape.h"
#include "base/unicode.h"

namespace stackline {
namespace {

// A Python expression token stream limited to what a (str, bool) literal can contain.
class Parser {
public:
    explicit Parser(std::string_view s) : s_(s) {}

    std::optional<GraphKey> parse(GraphKeyParse& outcome) {
        outcome = GraphKeyParse::NotAKey;
        // literal_eval strips leading spaces and tabs, then parses in eval mode.
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
        std::vector<Item> items;
        bool tuple = false;
        if (!parseList(items, tuple, 0)) return std::nullopt;
        skip(0);
        if (i_ != s_.size()) return std::nullopt;
        try {
            for (const Item& item : items) evaluate(item);
        } catch (const ValueError&) {
            return std::nullopt;
        } catch (const TypeError&) {
            outcome = GraphKeyParse::Raises;
            return std::nullopt;
        }
        std::optional<GraphKey> key = asKey(items, tuple);
        if (key) outcome = GraphKeyParse::Key;
        return key;
    }

private:
    // A parsed literal. Evaluation order matters for which error comes first, so containers keep
    // their elements (dict: key, value, key, value...) and are checked when evaluated.
    struct Item {
        enum Kind { Str, Bool, Tuple, List, Set, Dict, Scalar, Name } kind = Scalar;
        std::string str;
        bool flag = false;
        std::vector<Item> elements;
    };

    struct ValueError {};
    struct TypeError {};

    // literal_eval's _convert: returns whether the value is hashable.
    static bool evaluate(const Item& item) {
        switch (item.kind) {
            case Item::Name:
                throw ValueError{};
            case Item::Tuple: {
                bool hashable = true;
                for (const Item& e : item.elements) hashable = evaluate(e) && hashable;
                return hashable;
            }
            case Item::List:
                for (const Item& e : item.elements) evaluate(e);
                return false;
            case Item::Set:
                for (const Item& e : item.elements)
                    if (!evaluate(e)) throw TypeError{};
                return false;
            case Item::Dict:
                for (std::size_t i = 0; i + 1 < item.elements.size(); i += 2) {
                    bool keyHashable = evaluate(item.elements[i]);
                    evaluate(item.elements[i + 1]);
                    if (!keyHashable) throw TypeError{};
                }
                return false;
            default:
                return true;
        }
    }

    static std::optional<GraphKey> asKey(const std::vector<Item>& items, bool tuple) {
        if (!tuple) {
            if (items.size() == 1 && items[0].kind == Item::Tuple)
                return asKey(items[0].elements, true);
            return std::nullopt;
        }
        if (items.size() != 2 || items[0].kind != Item::Str || items[1].kind != Item::Bool)
            return std::nullopt;
        return GraphKey{items[0].str, items[1].flag};
    }

    // Whitespace and comments; newlines only inside parentheses (depth > 0) or at the very end.
    void skip(int depth) {
        for (;;) {
            if (i_ >= s_.size()) return;
            char c = s_[i_];
            if (c == ' ' || c == '\t' || c == '\f') {
                ++i_;
            } else if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
                i_ += 2;
            } else if (c == '#') {
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
            } else if (c == '\n' || c == '\r') {
                if (depth == 0) {
                    std::size_t j = i_;
                    while (j < s_.size() && std::isspace(static_cast<unsigned char>(s_[j]))) ++j;
                    if (j != s_.size()) return;
                }
                ++i_;
            } else {
                return;
            }
        }
    }

    // item (',' item)* [','] ; tuple is set when a comma is seen.
    bool parseList(std::vector<Item>& items, bool& tuple, int depth) {
        for (;;) {
            skip(depth);
            Item item;
            if (!parseAtom(item, depth)) return false;
            items.push_back(std::move(item));
            skip(depth);
            if (i_ < s_.size() && s_[i_] == ',') {
                tuple = true;
                ++i_;
                skip(depth);
                if (i_ >= s_.size() || s_[i_] == ')') return true;
                continue;
            }
            return true;
        }
    }

    // [a, b], {a, b} and {k: v}; the opening bracket is at i_.
    bool parseDisplay(Item& item, int depth) {
        char close = s_[i_] == '[' ? ']' : '}';
        item.kind = close == ']' ? Item::List : Item::Set;
        ++i_;
        for (bool first = true;; first = false) {
            skip(depth + 1);
            if (i_ < s_.size() && s_[i_] == close) break;
            Item element;
            if (!parseAtom(element, depth + 1)) return false;
            item.elements.push_back(std::move(element));
            skip(depth + 1);
            if (close == '}' && i_ < s_.size() && s_[i_] == ':') {
                if (!first && item.kind != Item::Dict) return false;
                item.kind = Item::Dict;
                ++i_;
                skip(depth + 1);
                Item value;
                if (!parseAtom(value, depth + 1)) return false;
                item.elements.push_back(std::move(value));
                skip(depth + 1);
            } else if (item.kind == Item::Dict) {
                return false;
            }
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            break;
        }
        skip(depth + 1);
        if (i_ >= s_.size() || s_[i_] != close) return false;
        ++i_;
        if (close == '}' && item.elements.empty()) item.kind = Item::Dict;  // {} is a dict
        return true;
    }

    bool parseAtom(Item& item, int depth) {
        if (i_ >= s_.size() || depth > 200) return false;  // Python's parser nests 200 deep
        char c = s_[i_];
        if (c == '[' || c == '{') return parseDisplay(item, depth);
        if (c == '(') {
            ++i_;
            skip(depth + 1);
            std::vector<Item> inner;
            bool tuple = false;
            if (i_ < s_.size() && s_[i_] == ')') {
                ++i_;
                item.kind = Item::Tuple;  // ()
                return true;
            }
            if (!parseList(inner, tuple, depth + 1)) return false;
            skip(depth + 1);
            if (i_ >= s_.size() || s_[i_] != ')') return false;
            ++i_;
            if (tuple) {
                item.kind = Item::Tuple;
                item.elements = std::move(inner);
            } else {
                item = std::move(inner[0]);
            }
            return true;
        }
        if (isNameStart(c)) {
            std::size_t b = i_;
            while (i_ < s_.size() && isNameChar(s_[i_])) ++i_;
            std::string_view word = s_.substr(b, i_ - b);
            if (i_ < s_.size() && (s_[i_] == '\'' || s_[i_] == '"')) {
                i_ = b;
                return parseStrings(item, depth);
            }
            if (word == "True" || word == "False") {
                item.kind = Item::Bool;
                item.flag = word == "True";
                return true;
            }
            if (word == "None") return true;  // a constant, but not a str or bool
            item.kind = Item::Name;           // valid syntax, but literal_eval rejects it
            return true;
        }
        if (c == '\'' || c == '"') return parseStrings(item, depth);
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
            // Numbers are literals, but never part of a (str, bool) key.
            while (i_ < s_.size() &&
                   (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                    s_[i_] == '_' || s_[i_] == '-' || s_[i_] == '+'))
                ++i_;
            return true;
        }
        return false;
    }

    static bool isNameStart(char c) {
        return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
    }
    static bool isNameChar(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    }

    // One or more adjacent string literals, concatenated.
    bool parseStrings(Item& item, int depth) {
        item.kind = Item::Str;
        bool any = false;
        for (;;) {
            skip(depth);
            std::size_t b = i_;
            bool raw = false, bytes = false, format = false;
            while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) {
                char p = char(std::tolower(static_cast<unsigned char>(s_[i_])));
                if (p == 'r')
                    raw = true;
                else if (p == 'b')
                    bytes = true;
                else if (p == 'f')
                    format = true;
                else if (p != 'u')
                    return false;
                ++i_;
            }
            if (i_ - b > 2) return false;
            if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) {
                i_ = b;
                return any;
            }
            if (bytes || format) return false;  // bytes or f-strings: not a str constant
            if (!parseString(item.str, raw)) return false;
            any = true;
        }
    }

    bool parseString(std::string& out, bool raw) {
        char q = s_[i_];
        bool triple = s_.substr(i_, 3) == std::string(3, q);
        i_ += triple ? 3 : 1;
        for (;;) {
            if (i_ >= s_.size()) return false;
            char c = s_[i_];
            if (c == q && (!triple || s_.substr(i_, 3) == std::string(3, q))) {
                i_ += triple ? 3 : 1;
                return true;
            }
            if (c == '\n' && !triple) return false;
            if (c != '\\') {
                out += c;
                ++i_;
                continue;
            }
            if (i_ + 1 >= s_.size()) return false;
            char e = s_[i_ + 1];
            if (raw) {
                out += c;
                out += e;  // a raw string keeps the backslash, and the quote does not end it
                i_ += 2;
                continue;
            }
            i_ += 2;
            if (char control = controlEscape(e)) {
                out += control;
                continue;
            }
            switch (e) {
                case '\n':
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '\'':
                    out += '\'';
                    break;
                case '"':
                    out += '"';
                    break;
                case 'a':
                    out += '\a';
                    break;
                case 'v':
                    out += '\v';
                    break;
                case 'x':
                case 'u':
                case 'U': {
                    int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    char32_t cp = 0;
                    for (int k = 0; k < n; ++k, ++i_) {
                        if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_])))
                            return false;
                        char h = char(std::tolower(static_cast<unsigned char>(s_[i_])));
                        cp = cp * 16 + char32_t(h <= '9' ? h - '0' : h - 'a' + 10);
                    }
                    if (cp > 0x10FFFF) return false;
                    unicode::appendUtf8(out, cp);
                    break;
                }
                case 'N':
                    return false;  // named escapes need the Unicode name table
                default:
                    if (e >= '0' && e <= '7') {
                        char32_t cp = char32_t(e - '0');
                        for (int k = 0; k < 2 && i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '7';
                             ++k)
                            cp = cp * 8 + char32_t(s_[i_++] - '0');
                        unicode::appendUtf8(out, cp);
                    } else {
                        out += '\\';  // unknown escapes keep their backslash
                        out += e;
                    }
            }
        }
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

}  // namespace

std::optional<GraphKey> parseGraphKey(std::string_view text, GraphKeyParse* outcome) {
    GraphKeyParse ignored;
    return Parser(text).parse(outcome ? *outcome : ignored);
}

}  // namespace stackline
