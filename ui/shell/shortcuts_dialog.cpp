#include "shell/shortcuts_dialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

#include "widgets/palette.h"

void showShortcutsDialog(QWidget* parent) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(&dialog);
    QString html = QObject::tr(
        "<table cellspacing=6>"
        "<tr><td><b>W</b> / <b>S</b>, Ctrl+wheel</td><td>zoom in / out at the "
        "cursor</td></tr>"
        "<tr><td><b>A</b> / <b>D</b>, drag, Shift+wheel</td><td>pan</td></tr>"
        "<tr><td>wheel</td><td>scroll tracks</td></tr>"
        "<tr><td>Shift+drag, drag on the ruler</td><td>select a time range</td></tr>"
        "<tr><td><b>F</b>, double-click</td><td>zoom to the range or the selected "
        "slice</td></tr>"
        "<tr><td><b>0</b></td><td>show the whole trace</td></tr>"
        "<tr><td>Ctrl+F</td><td>find slices by name</td></tr>"
        "<tr><td>Enter / Shift+Enter, F3 / Shift+F3</td><td>next / previous "
        "match</td></tr>"
        "<tr><td>Alt+Left / Alt+Right, mouse back / forward</td><td>previous / next "
        "selection</td></tr>"
        "<tr><td>double-click a ProfilerStep</td><td>select its time range</td></tr>"
        "<tr><td><b>M</b> / Shift+M</td><td>drop a marker at the selected slice's start (else at "
        "the cursor) / clear the markers; the ruler shows the time between markers</td></tr>"
        "<tr><td><b>N</b> / <b>P</b> / <b>L</b></td><td>next / previous / longest instance of "
        "the kernel (Kernels, Unresolved, Hotspots tab)</td></tr>"
        "<tr><td>Ctrl+O / Ctrl+E</td><td>open a trace / export the annotated "
        "trace</td></tr>"
        "<tr><td>F5</td><td>reload the trace (after it changed on disk)</td></tr>"
        "<tr><td>click a process header</td><td>collapse or expand it</td></tr>"
        "<tr><td><b>?</b></td><td>this help</td></tr></table>");
    html += QObject::tr("<p><b>Colours</b></p><table cellspacing=4>");
    for (int s = 0; s < int(SliceStyle::Count); ++s)
        html += QStringLiteral(
                    "<tr><td style=\"background:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                    "<td>%2</td></tr>")
                    .arg(sliceColor(SliceStyle(s)).name(), QObject::tr(styleName(SliceStyle(s))));
    html += QStringLiteral("</table>");
    auto* label = new QLabel(html);
    label->setTextFormat(Qt::RichText);
    layout->addWidget(label);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.exec();
}
