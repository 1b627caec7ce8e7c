"""Prints the records of an ISO 2709 file as pymarc reads them, in yaz-marcdump's line format:
the leader, then a line a field (`001 data`, `245 10 $a Title $c Author`), a blank line after
each record. UTF-8 is read strictly: a byte that is not UTF-8 is an error, not a replacement."""

import sys

import pymarc


def main(path):
    with open(path, "rb") as file:
        reader = pymarc.MARCReader(file, to_unicode=True, force_utf8=True, utf8_handling="strict")
        for record in reader:
            if record is None:
                print(f"pymarc could not read a record: {reader.current_exception}", file=sys.stderr)
                return 1
            print(str(record.leader))
            for field in record.fields:
                if field.is_control_field():
                    print(f"{field.tag} {field.data}")
                else:
                    subfields = " ".join(f"${subfield.code} {subfield.value}" for subfield in field.subfields)
                    print(f"{field.tag} {''.join(field.indicators)} {subfields}")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
