// Diagnostics grouped for reading: kind, then message (with counts), then the distinct events;
// a warning the reference logs twice for one kernel is one event counted twice.
#include <QTest>

#include "annotate/diagnostic_groups.h"

using namespace stackline;

class TstDiagnosticGroups : public QObject {
    Q_OBJECT
private slots:
    void groupsByKindMessageAndEvent() {
        const std::string twice = "Kernel k cannot be recognized";
        const std::vector<Diagnostic> diags = {
            {DiagnosticKind::KernelInfoSource, kNoRow, {}, "merged two artifacts"},
            {DiagnosticKind::UnrecognizedKernel, 7, "k", twice},
            {DiagnosticKind::BadTs, 3, "a", "event 3 has a string ts"},
            {DiagnosticKind::UnrecognizedKernel, 7, "k", twice},
            {DiagnosticKind::UnrecognizedKernel, 9, "k", twice},
            {DiagnosticKind::UnrecognizedKernel, 4, "j", "Kernel j cannot be recognized"},
            {DiagnosticKind::BadTs, 5, "b", "event 5 has a string ts"},
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
        const DiagnosticGroups::Message& k = unrecognized.messages[0];
        QCOMPARE(diags[k.diagnostic].message, twice);
        QCOMPARE(k.occurrences, 3u);
        QCOMPARE(k.events.size(), std::size_t(2));
        QCOMPARE(diags[k.events[0].diagnostic].row, 7u);
        QCOMPARE(k.events[0].occurrences, 2u);  // logged twice, listed once
        QCOMPARE(diags[k.events[1].diagnostic].row, 9u);
        QCOMPARE(k.events[1].occurrences, 1u);

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
            for (int times = 0; times < 2; ++times)
                diags.push_back({DiagnosticKind::UnrecognizedKernel, row, "k",
                                 "Kernel k" + std::to_string(row % 5) + " cannot be recognized"});
        const DiagnosticGroups g = groupDiagnostics(diags);
        QCOMPARE(g.kinds.size(), std::size_t(1));
        QCOMPARE(g.kinds[0].occurrences, 80000u);
        QCOMPARE(g.kinds[0].messages.size(), std::size_t(5));
        QCOMPARE(g.kinds[0].messages[0].events.size(), std::size_t(8000));
        QCOMPARE(g.firstByRow.size(), std::size_t(40000));
    }
};

QTEST_GUILESS_MAIN(TstDiagnosticGroups)
#include "tst_diagnostic_groups.moc"
