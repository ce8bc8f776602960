#pragma once
// Where the names of a roofline's points go. Library kernels share long prefixes
// ("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize..."), and points crowd: a name is elided in the middle so
// that its distinctive end shows, and it is placed beside its disc only where it covers no other name and no
// other disc; a point with no such place shows no name (its tooltip has it). The biggest points come first.
#include <QFontMetricsF>
#include <QRectF>
#include <QStringList>
#include <optional>
#include <vector>

namespace gpuscope::ui {

// NAMES elided in the middle to WIDTH pixels of METRICS; where two different names would read the same,
// both keep more characters until they differ, are whole, or take kMostWidening x WIDTH; names still alike
// then (PyTorch's templates differ deep inside hundreds of characters) show start…the part that differs…end.
inline constexpr double kMostWidening = 2;
QStringList middleElidedNames(const QStringList& names, const QFontMetricsF& metrics, double width);

// A point's disc (its bounding square, the disc inscribed) and the size of its name.
struct LabelledDisc {
  QRectF disc;
  QSizeF label;
};

// Which discs (by DISCS index) repeat the name TEXTS gives an earlier disc in ORDER with its centre inside
// theirs: two launches of one kernel at one spot, which one name serves.
std::vector<bool> twinsOfEarlier(const std::vector<LabelledDisc>& discs, const std::vector<QString>& texts,
                                 const std::vector<size_t>& order);

// The rectangle of each disc's name (by DISCS index), or nullopt where no place beside the disc is free:
// inside BOUNDS, clear of every name placed before and of every other disc. Discs are served in ORDER.
std::vector<std::optional<QRectF>> placeLabels(const std::vector<LabelledDisc>& discs, const std::vector<size_t>& order,
                                               const QRectF& bounds);

}  // namespace gpuscope::ui
