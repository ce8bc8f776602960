#pragma once
// TimelinePalette: the colours of the timeline's bars, by track kind, name, NVTX colour and copy kind.
#include <QColor>
#include <QString>

#include "core/model/trace.h"
#include "core/samples/thread_states.h"

namespace gpuscope::ui {

namespace timeline_colors {
inline const QColor kBackground{0xfb, 0xfb, 0xfc};
inline const QColor kRowAlternate{0xf2, 0xf4, 0xf7};
inline const QColor kHeaderRow{0xe4, 0xe8, 0xee};
inline const QColor kLabelColumn{0xec, 0xef, 0xf3};
inline const QColor kLabelText{0x1d, 0x23, 0x2b};
inline const QColor kRuler{0xdd, 0xe2, 0xe9};
inline const QColor kGrid{0xdf, 0xe3, 0xe8};
inline const QColor kSelection{0xff, 0x6a, 0x00};  // outline of the selected event
inline const QColor kFlowArrow{0xe0, 0x1e, 0x5a};  // API call <-> GPU work
inline const QColor kRangeFill{0x30, 0x80, 0xe0, 0x30};
inline const QColor kRangeEdge{0x20, 0x6c, 0xd0};
inline const QColor kUtilization{0x2e, 0x9e, 0x6a};
inline const QColor kFindMatch{0xff, 0xd4, 0x00};
inline const QColor kSampleTick{0x2a, 0x33, 0x40};  // a CPU sample on a thread-state row
}  // namespace timeline_colors

// The fill of an event: NVTX events in their own ARGB colour when they have one; memory by copy
// kind (host-to-device green, device-to-host red, device-to-device amber, peer violet, memset
// slate); everything else by NAME_KEY (TimelineNameCache::colorKey, a hash of the name's text, so a name
// has one colour in every trace, as the compare view needs) within a hue band per track kind.
QColor eventColor(TrackKind kind, uint32_t nameKey, uint32_t style);
// The colour key of a name as the timeline shows it: a hash of its text, the same in every run.
uint32_t nameColorKey(const QString& shownName);
// The fill of a folded block: the kind's colour, darker and greyer, so it reads as "many".
QColor foldColor(TrackKind kind);
// Black or white, whichever reads better on FILL.
QColor textColorOn(const QColor& fill);
// A thread's scheduling state on its thread-state row, as Nsight Systems shows them: running green,
// waiting for a CPU (preempted) amber, sleeping pale blue, blocked in I/O red, off CPU for a reason the
// file does not give grey, and after its end a faint grey.
QColor threadActivityColor(ThreadActivity activity);
// "Host-to-Device", "memset", ... for a memory event's style.
QString memoryKindName(uint32_t style);

}  // namespace gpuscope::ui
