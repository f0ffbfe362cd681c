// The panel table and the tab bar MainWindow builds from it: the tabs in order with their titles
// and counts, Steps greyed and Diff hidden with nothing to show, every id shown by --tab's name,
// and --tab's help listing the ids.
#include <QtTest>

#include "panels/hotspots_panel.h"
#include "panels/panel_table.h"
#include "shell/main_window.h"
#include "viewer_test_support.h"

using namespace ui_test;

class TstPanelTable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }

    void theHelpListsTheIds() {
        QCOMPARE(panelIdsText(),
                 QStringLiteral("kernels, unresolved, diagnostics, hotspots, source, selection, "
                                "flame, code (Kernel code), steps or diff (with --compare)"));
    }

    void theTabBarFollowsTheTable() {
        MainWindow window;
        QTabWidget* tabs = window.tabs();
        const auto& table = panelTable();
        QCOMPARE(tabs->count(), int(table.size()));
        QStringList texts;
        for (int i = 0; i < tabs->count(); ++i) texts << tabs->tabText(i);
        QCOMPARE(texts,
                 QStringList({"Kernels", "Unresolved (0)", "Diagnostics (0)", "Hotspots (0)",
                              "Source", "Selection", "Flame", "Kernel code", "Steps", "Diff"}));
        const int steps = 8, diff = 9;
        QCOMPARE(table[steps].id, QStringLiteral("steps"));
        QVERIFY(!tabs->isTabEnabled(steps));  // no steps to list
        QVERIFY(!tabs->isTabVisible(diff));   // no runs compared
        QVERIFY(!window.showTab(QStringLiteral("diff")));
        QVERIFY(!window.showTab(QStringLiteral("nothing")));

        QVERIFY(openTrace(window, QStringLiteral(STACKLINE_EXAMPLE_DIR "/example.pt.trace.json")));
        for (int i = 0; i < tabs->count(); ++i) {
            if (i == diff) continue;
            QVERIFY(window.showTab(table[size_t(i)].id.toUpper()));  // as --tab's value is read
            QCOMPARE(tabs->currentIndex(), i);
        }
        QCOMPARE(tabs->tabText(3),
                 QStringLiteral("Hotspots (%1)").arg(window.panel<HotspotsPanel>()->count()));
        QVERIFY(window.panel<HotspotsPanel>()->count() > 0);
    }
};

QTEST_MAIN(TstPanelTable)
#include "tst_panel_table.moc"
