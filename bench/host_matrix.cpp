// bench/host_matrix.cpp — typed host storage and its conversions to and from double.
#include "bench/host_matrix.hpp"

#include <clgemm/cpu.hpp>

namespace clgemm::bench {

HostMatrix::HostMatrix(DataType type, size_t count) : type_(type) {
  switch (type) {
    case DataType::F32: f32_.assign(count, 0.0f); break;
    case DataType::F64: f64_.assign(count, 0.0); break;
    case DataType::F16:
    case DataType::BF16: bits16_.assign(count, 0); break;
  }
}

HostMatrix::HostMatrix(std::vector<float> values) : type_(DataType::F32), f32_(std::move(values)) {}

size_t HostMatrix::size() const {
  switch (type_) {
    case DataType::F32: return f32_.size();
    case DataType::F64: return f64_.size();
    default: return bits16_.size();
  }
}

const void* HostMatrix::data() const {
  switch (type_) {
    case DataType::F32: return f32_.data();
    case DataType::F64: return f64_.data();
    default: return bits16_.data();
  }
}

void* HostMatrix::data() { return const_cast<void*>(static_cast<const HostMatrix&>(*this).data()); }

double HostMatrix::get(size_t i) const {
  switch (type_) {
    case DataType::F32: return f32_[i];
    case DataType::F64: return f64_[i];
    case DataType::F16: return cpu::half_to_float(bits16_[i]);
    case DataType::BF16: return cpu::bf16_to_float(bits16_[i]);
  }
  return 0;
}

void HostMatrix::set(size_t i, double v) {
  switch (type_) {
    case DataType::F32: f32_[i] = float(v); break;
    case DataType::F64: f64_[i] = v; break;
    case DataType::F16: bits16_[i] = cpu::float_to_half(float(v)); break;
    case DataType::BF16: bits16_[i] = cpu::float_to_bf16(float(v)); break;
  }
}

std::vector<double> HostMatrix::to_doubles() const {
  std::vector<double> out(size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = get(i);
  return out;
}

}  // namespace clgemm::bench
