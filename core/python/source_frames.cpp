#include "python/source_frames.h"

#include <nlohmann/json.hpp>

namespace stackline {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool parseInt(std::string_view s, int& out) {
    if (s.empty() || s.size() > 9) return false;
    out = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
    }
    return true;
}

// `File "x", line N, in f`
bool parseFileLine(std::string_view l, SourceFrame& f) {
    if (l.rfind("File \"", 0) != 0) return false;
    std::size_t close = l.find("\", line ", 6);
    if (close == std::string_view::npos) return false;
    f.file = std::string(l.substr(6, close - 6));
    std::string_view rest = l.substr(close + 8);
    std::size_t comma = rest.find(", in ");
    if (!parseInt(comma == std::string_view::npos ? rest : rest.substr(0, comma), f.line))
        return false;
    f.function = comma == std::string_view::npos ? "" : std::string(rest.substr(comma + 5));
    return true;
}

// `model.py:7 in forward`
bool parseShort(std::string_view l, SourceFrame& f) {
    std::size_t in = l.find(" in ");
    std::string_view loc = in == std::string_view::npos ? l : l.substr(0, in);
    std::size_t colon = loc.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || loc.find(' ') != std::string_view::npos)
        return false;
    if (!parseInt(loc.substr(colon + 1), f.line)) return false;
    f.file = std::string(loc.substr(0, colon));
    f.function = in == std::string_view::npos ? "" : std::string(l.substr(in + 4));
    return true;
}

bool isCaretLine(std::string_view l) {
    return !l.empty() && l.find_first_not_of("^~ ") == std::string_view::npos;
}

}  // namespace

std::vector<SourceFrame> parseStackString(std::string_view text) {
    std::string unescaped;
    if (text.find('\n') == std::string_view::npos && text.find("\\n") != std::string_view::npos) {
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
                unescaped += '\n';
                ++i;
            } else {
                unescaped += text[i];
            }
        }
        text = unescaped;
    }
    std::vector<SourceFrame> frames;
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) nl = text.size();
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string_view l = trim(lines[i]);
        SourceFrame f;
        if (parseFileLine(l, f)) {
            if (i + 1 < lines.size()) {
                std::string_view next = trim(lines[i + 1]);
                if (!next.empty() && next.rfind("File \"", 0) != 0 && !isCaretLine(next)) {
                    f.code = std::string(next);
                    ++i;
                }
            }
            frames.push_back(std::move(f));
        } else if (frames.empty() && lines.size() == 1 && parseShort(l, f)) {
            frames.push_back(std::move(f));
        }
    }
    return frames;
}

std::vector<std::string> stackStrings(const std::string& stackJson) {
    std::vector<std::string> out;
    nlohmann::json j = nlohmann::json::parse(stackJson, nullptr, false);
    if (j.is_string()) {
        out.push_back(j.get<std::string>());
    } else if (j.is_array()) {
        for (const auto& e : j)
            if (e.is_string()) out.push_back(e.get<std::string>());
    }
    return out;
}

}  // namespace stackline
