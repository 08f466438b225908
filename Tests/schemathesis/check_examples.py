"""Checks that every example in docs/openapi.json matches its schema, so the API reference never shows a request or a
reply that the server would not send or accept. Usage: check_examples.py docs/openapi.json (scripts/schemathesis runs
it). Prints 'examples: N passed, N failed' and exits non-zero on a mismatch."""

import json
import sys

import jsonschema_rs


def validator(document, schema):
    """A validator of `schema`, whose `$ref`s point into the document's components."""
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema", "components": document["components"], "allOf": [schema]}
    return jsonschema_rs.validator_for(root)


def examples_of(holder):
    """The `example` and the values of `examples` of a schema, a media type or a parameter."""
    found = []
    if "example" in holder:
        found.append(("example", holder["example"]))
    examples = holder.get("examples")
    if isinstance(examples, dict):  # media types and parameters: named Example objects
        found += [(name, example["value"]) for name, example in examples.items() if "value" in example]
    elif isinstance(examples, list):  # schemas: a list of values
        found += [("examples[%d]" % index, value) for index, value in enumerate(examples)]
    return found


def cases(document):
    """(where, schema, example) for every example of the document."""
    for name, schema in document["components"]["schemas"].items():
        for label, value in examples_of(schema):
            yield "components.schemas.%s %s" % (name, label), {"$ref": "#/components/schemas/" + name}, value
    for name, parameter in document["components"]["parameters"].items():
        yield from parameter_cases("components.parameters." + name, parameter)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            where = "%s %s" % (method.upper(), path)
            for parameter in operation.get("parameters", []):
                if "$ref" not in parameter:
                    yield from parameter_cases(where + " parameter " + parameter["name"], parameter)
            for media_type, media in operation.get("requestBody", {}).get("content", {}).items():
                for label, value in examples_of(media):
                    yield "%s request %s %s" % (where, media_type, label), media["schema"], value
            for status, response in operation["responses"].items():
                for media_type, media in response.get("content", {}).items():
                    for label, value in examples_of(media):
                        yield "%s %s %s %s" % (where, status, media_type, label), media["schema"], value
    for name, response in document["components"]["responses"].items():
        for media_type, media in response.get("content", {}).items():
            for label, value in examples_of(media):
                yield "components.responses.%s %s" % (name, label), media["schema"], value


def parameter_cases(where, parameter):
    if "schema" in parameter:
        for label, value in examples_of(parameter):
            yield where + " " + label, parameter["schema"], value
    for media in parameter.get("content", {}).values():
        for label, value in examples_of(media):
            yield where + " " + label, media["schema"], value


def main():
    document = json.load(open(sys.argv[1], encoding="utf-8"))
    passed = failed = 0
    for where, schema, value in cases(document):
        errors = [error.message for error in validator(document, schema).iter_errors(value)]
        if errors:
            failed += 1
            print("%s does not match its schema: %s" % (where, "; ".join(errors[:3])))
        else:
            passed += 1
    print("examples: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
