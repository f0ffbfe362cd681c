#include <QTest>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "json/json_string.h"

using namespace stackline;

class TstJsonString : public QObject {
    Q_OBJECT
private slots:
    // appendString checks eight bytes at a time: every kind of byte that needs more than copying,
    // at every place of a word, is written as nlohmann's dump writes it (invalid UTF-8 replaced).
    void stringsAreWrittenAsNlohmannDumpsThem() {
        const std::string alphabet[] = {"a",    "Z",    " ",        "~",
                                        "\"",   "\\",   "\n",       std::string(1, '\0'),
                                        "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
                                        "\xff", "\x80"};
        std::mt19937 random(11);
        for (int i = 0; i < 20000; ++i) {
            std::string s;
            const int length = int(random() % 40);
            for (int c = 0; c < length; ++c) {
                // Mostly plain ASCII, as names are, with a special byte now and then.
                const bool plain = random() % 8 != 0;
                s += alphabet[plain ? random() % 4 : random() % std::size(alphabet)];
            }
            std::string out = "x";
            json::appendString(out, s);
            std::string expected = "x";
            expected +=
                nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            QCOMPARE(out, expected);
        }
    }
};

QTEST_APPLESS_MAIN(TstJsonString)
#include "tst_json_string.moc"
