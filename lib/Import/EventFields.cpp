//===- EventFields.cpp - Names and types of an event's known fields -------===//
#include "EventFields.h"

using namespace tl;

llvm::StringRef tl::fieldName(Field F) {
  switch (F) {
  case Field::Ph:
    return "ph";
  case Field::Name:
    return "name";
  case Field::Cat:
    return "cat";
  case Field::Ts:
    return "ts";
  case Field::Dur:
    return "dur";
  case Field::Pid:
    return "pid";
  case Field::Tid:
    return "tid";
  case Field::Id:
    return "id";
  case Field::Args:
    return "args";
  case Field::Other:
    return "?";
  }
  return "?";
}

std::string tl::expectedType(Field F) {
  switch (F) {
  case Field::Ts:
  case Field::Dur:
    return "number";
  case Field::Pid:
  case Field::Tid:
  case Field::Id:
    return "integer or a string";
  default:
    return "string";
  }
}
