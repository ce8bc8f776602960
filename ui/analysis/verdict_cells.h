#pragma once
// Verdict cells: the columns every verdict table shares (the class, the judged wall time and the shares that
// decided it), with their text, sort key, tooltip and alignment in one place. RangeVerdictModel (per NVTX
// range) and RankVerdictModel (per rank) put their own identity columns before these.
#include <QString>
#include <QVariant>

#include "core/analysis/verdict/verdict.h"

namespace gpuscope::ui {

enum class VerdictCell { Class, Wall, GpuBusy, CollectivesAlone, CudaApi, Sync, CpuWhileIdle };

// What CELL of VERDICT shows for ROLE: the display text, the number to sort by under SORT_ROLE, the verdict's
// sentence as the tooltip, numbers right-aligned; an invalid QVariant for any other role.
QVariant verdictCellData(const Verdict& verdict, VerdictCell cell, int role, int sortRole);
// The column title of CELL.
QString verdictCellTitle(VerdictCell cell);

}  // namespace gpuscope::ui
