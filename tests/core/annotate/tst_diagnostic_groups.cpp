// Diagnostics grouped for reading: kind, then message (with counts), then the distinct events;
// a warning the reference logs twice for one kernel is one event counted twice.
#include <QTest>

#include "annotate/diagnostic_groups.h"

using namespace stackline;

class TstDiagnosticGroups : public QObject {
    Q_OBJECT
private slots:
    void groupsByKindMessageAndEvent() {
        using M = DiagnosticMessage;
        const uint32_t k = 1, j = 2;  // kernel names, as string ids
        const std::vector<Diagnostic> diags = {
            {M::KernelInfoNote, kNoRow, 1},  // "merged two artifacts"
            {M::UnrecognizedKernel, 7, k},   // "Kernel k cannot be recognized…", twice
            {M::TsNotNumber, 3, 0, 3},       // "event 3 has a "ts" that is not a number"
            {M::UnrecognizedKernel, 7, k},  {M::UnrecognizedKernel, 9, k},
            {M::UnrecognizedKernel, 4, j},  {M::TsNotNumber, 5, 0, 5},
        };
        const DiagnosticGroups g = groupDiagnostics(diags);
        QCOMPARE(g.kinds.size(), std::size_t(3));  // in first-report order
        QCOMPARE(g.kinds[0].kind, DiagnosticKind::KernelInfoSource);
        QCOMPARE(g.kinds[0].messages.size(), std::size_t(1));
        QVERIFY(g.kinds[0].messages[0].events.empty());  // about no event

        const DiagnosticGroups::Kind& unrecognized = g.kinds[1];
        QCOMPARE(unrecognized.kind, DiagnosticKind::UnrecognizedKernel);
        QCOMPARE(unrecognized.occurrences, 4u);
        QCOMPARE(unrecognized.messages.size(), std::size_t(2));
        const DiagnosticGroups::Message& message = unrecognized.messages[0];
        QCOMPARE(diags[message.diagnostic].name, k);
        QCOMPARE(message.occurrences, 3u);
        QCOMPARE(message.events.size(), std::size_t(2));
        QCOMPARE(diags[message.events[0].diagnostic].row, 7u);
        QCOMPARE(message.events[0].occurrences, 2u);  // logged twice, listed once
        QCOMPARE(diags[message.events[1].diagnostic].row, 9u);
        QCOMPARE(message.events[1].occurrences, 1u);

        QCOMPARE(g.kinds[2].kind, DiagnosticKind::BadTs);
        QCOMPARE(g.kinds[2].messages.size(), std::size_t(2));

        // Where the first diagnostic about an event is.
        const DiagnosticGroups::Position* at = g.find(9);
        QVERIFY(at);
        QCOMPARE(at->kind, 1u);
        QCOMPARE(at->message, 0u);
        QCOMPARE(at->event, 1u);
        QCOMPARE(g.find(5)->kind, 2u);
        QCOMPARE(g.find(5)->message, 1u);
        QVERIFY(!g.find(8));
        QVERIFY(groupDiagnostics({}).kinds.empty());
    }

    // Tens of thousands of twice-logged warnings about a handful of kernels: a few groups.
    void manyWarnings() {
        std::vector<Diagnostic> diags;
        for (uint32_t row = 0; row < 40000; ++row)
            for (int times = 0; times < 2; ++times)  // five kernel names
                diags.emplace_back(DiagnosticMessage::UnrecognizedKernel, row, row % 5 + 1);
        const DiagnosticGroups g = groupDiagnostics(diags);
        QCOMPARE(g.kinds.size(), std::size_t(1));
        QCOMPARE(g.kinds[0].occurrences, 80000u);
        QCOMPARE(g.kinds[0].messages.size(), std::size_t(5));
        QCOMPARE(g.kinds[0].messages[0].events.size(), std::size_t(8000));
        QCOMPARE(g.firstByRow.size(), std::size_t(40000));
    }

    // Messages numbered by their text's fields, in first-report order.
    void numbersMessages() {
        using M = DiagnosticMessage;
        const std::vector<Diagnostic> diags = {
            {M::TsMissing, 3, 0, 3},       {M::UnrecognizedKernel, 3, 7}, {M::TsMissing, 4, 0, 4},
            {M::UnrecognizedKernel, 9, 7}, {M::TsMissing, 8, 0, 3},  // reported at 8, names 3
        };
        const MessageNumbers n = numberMessages(diags);
        QCOMPARE(n.of, (std::vector<uint32_t>{0, 1, 2, 1, 0}));
        QCOMPARE(n.first, (std::vector<uint32_t>{0, 1, 2}));
    }
};

QTEST_GUILESS_MAIN(TstDiagnosticGroups)
#include "tst_diagnostic_groups.moc"
