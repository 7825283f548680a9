// Row-major Eigen types and Maps over caller-owned buffers: the only storage the core touches.
#pragma once

#include <cstdint>

#include <Eigen/Core>

namespace relpos {

template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

template <typename T>
using MatrixMap = Eigen::Map<Matrix<T>>;

template <typename T>
using ConstMatrixMap = Eigen::Map<const Matrix<T>>;

// Function parameters: a Ref binds to a Matrix, a Map or a block without copying.
template <typename T>
using MatrixRef = Eigen::Ref<Matrix<T>>;

template <typename T>
using ConstMatrixRef = const Eigen::Ref<const Matrix<T>>&;

using Index = Eigen::Index;

using OffsetMatrixMap =
    Eigen::Map<Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

}  // namespace relpos
