// bench/host_matrix.hpp — a matrix on the host stored in one of clgemm's element types, as the
// bytes a device buffer of that type holds: the bench's inputs, the results it reads back, and
// the tests' typed operands.
#pragma once

#include <clgemm/types.hpp>

#include <cstdint>
#include <vector>

namespace clgemm::bench {

class HostMatrix {
 public:
  HostMatrix() = default;
  // `count` zeros of type `type`.
  HostMatrix(DataType type, size_t count);
  // float32 values, as they are.
  explicit HostMatrix(std::vector<float> values);

  DataType type() const { return type_; }
  size_t size() const;
  size_t byte_size() const { return size() * data_type_bytes(type_); }
  // The stored elements, for uploads and downloads of byte_size() bytes.
  const void* data() const;
  void* data();

  // Element i, widened to double (exact for every type).
  double get(size_t i) const;
  // Stores v rounded to the type (16-bit types round through float, to nearest even).
  void set(size_t i, double v);
  // Every element widened to double.
  std::vector<double> to_doubles() const;

  // The elements themselves, for code that computes in one type; empty for the other types.
  const std::vector<float>& f32() const { return f32_; }
  std::vector<float>& f32() { return f32_; }
  const std::vector<double>& f64() const { return f64_; }
  std::vector<double>& f64() { return f64_; }

 private:
  DataType type_ = DataType::F32;
  // One of these holds the elements, by type: no aliasing of bytes as another type.
  std::vector<float> f32_;
  std::vector<double> f64_;
  std::vector<uint16_t> bits16_;  // f16 or bf16
};

}  // namespace clgemm::bench
