"""Documents several capabilities render: PDF through WeasyPrint, the workbook (xlsx), QR codes;
and the mixin of pages that answer with one."""
