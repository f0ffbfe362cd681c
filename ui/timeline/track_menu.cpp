#include "timeline/track_menu.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

using Kind = TrackModel::RowKind;

namespace {

void addTrackActions(QMenu& menu, TrackModel& model, uint32_t track,
                     const std::function<void()>& changed) {
    const auto act = [&](const QString& text, auto&& change) {
        return menu.addAction(text, [change, changed] {
            if (change()) changed();
        });
    };
    const bool pinned = model.isPinned(track);
    act(pinned ? QObject::tr("Unpin") : QObject::tr("Pin to Top"), [&model, track, pinned] {
        model.setPinned(track, !pinned);
        return true;
    });
    act(QObject::tr("Hide"), [&model, track] {
        model.setHidden(track, true);
        return true;
    });
    act(QObject::tr("Move Up"), [&model, track] { return model.moveTrackBy(track, -1); });
    act(QObject::tr("Move Down"), [&model, track] { return model.moveTrackBy(track, 1); });
    const int levels = model.levelCount(track);
    if (model.isFolded(track)) {
        act(QObject::tr("Show All %1 Levels").arg(levels), [&model, track] {
            model.setDepth(track, TrackLayout::kAllLevels);
            return true;
        });
    } else if (levels > TrackLayout::kDefaultDepth + 1) {
        act(QObject::tr("Limit to %1 Levels").arg(TrackLayout::kDefaultDepth), [&model, track] {
            model.setDepth(track, TrackLayout::kDefaultDepth);
            return true;
        });
    }
}

}  // namespace

void addHeaderActions(QMenu& menu, TrackModel& model, size_t row,
                      const std::function<void()>& changed, QWidget* dialogParent) {
    const TrackModel::Row r = model.rows()[row];
    if (r.kind == Kind::ProcessHeader) {
        const uint32_t p = r.process;
        const bool collapsed = model.isCollapsed(p);
        menu.addAction(collapsed ? QObject::tr("Expand") : QObject::tr("Collapse"),
                       [&model, p, collapsed, changed] {
                           model.setCollapsed(p, !collapsed);
                           changed();
                       });
        menu.addAction(QObject::tr("Move Up"), [&model, p, changed] {
            if (model.moveProcessBy(p, -1)) changed();
        });
        menu.addAction(QObject::tr("Move Down"), [&model, p, changed] {
            if (model.moveProcessBy(p, 1)) changed();
        });
    } else if (r.kind != Kind::PinnedHeader && r.kind != Kind::Counter) {
        addTrackActions(menu, model, r.track, changed);
    }
    menu.addSeparator();
    const size_t hidden = model.hiddenTracks().size();
    QAction* show = menu.addAction(QObject::tr("Show Hidden Tracks (%1)…").arg(hidden),
                                   [&model, changed, dialogParent] {
                                       if (showHiddenTracksDialog(model, dialogParent)) changed();
                                   });
    show->setEnabled(hidden > 0);
    menu.addAction(QObject::tr("Reset Track Layout"), [&model, changed] {
        model.resetLayout();
        changed();
    });
}

bool showHiddenTracksDialog(TrackModel& model, QWidget* parent) {
    const std::vector<uint32_t> hidden = model.hiddenTracks();
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Hidden Tracks"));
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(QObject::tr("Check the tracks to show again:"), &dialog));
    auto* list = new QListWidget(&dialog);
    for (uint32_t t : hidden) {
        auto* item = new QListWidgetItem(model.qualifiedLabel(t), list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    layout->addWidget(list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted) return false;
    bool any = false;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->checkState() != Qt::Checked) continue;
        model.setHidden(hidden[size_t(i)], false);
        any = true;
    }
    return any;
}
