! scope_profiler: the Fortran module (F2008 with iso_c_binding) over the C
! library. Link with -lscope_profiler_fortran -lscope_profiler.
!
!     use scope_profiler
!     integer :: h
!     call sp_setup(label="tutorial 2")
!     h = sp_region("solve")
!     call sp_begin(h); ...; call sp_end(h)
!     call sp_begin_name("setup"); ...; call sp_end_name("setup")
!     call sp_finalize()
!
! Names are used without their trailing blanks. Every routine that can
! fail has an optional `status` argument (SP_OK = 0, else one of the SP_ERR_*
! codes; sp_status_string explains it). With `#include "scope_profiler.fh"`
! and the C preprocessor, SP_LOC passes __FILE__ and __LINE__:
! `call sp_end(h, SP_LOC)`, so that a mismatch report names the line.
module scope_profiler
    use, intrinsic :: iso_c_binding
    implicit none
    private

    ! Status codes: the values of the C enum sp_status, in its order.
    integer, parameter, public :: SP_OK = 0
    integer, parameter, public :: SP_ERR_INVALID_ARGUMENT = 1
    integer, parameter, public :: SP_ERR_OUT_OF_MEMORY = 2
    integer, parameter, public :: SP_ERR_NOT_ACTIVE = 3
    integer, parameter, public :: SP_ERR_ALREADY_ACTIVE = 4
    integer, parameter, public :: SP_ERR_NO_DIRECTORY = 5
    integer, parameter, public :: SP_ERR_PERMISSION = 6
    integer, parameter, public :: SP_ERR_DISK_FULL = 7
    integer, parameter, public :: SP_ERR_IO = 8
    integer, parameter, public :: SP_ERR_HDF5 = 9
    integer, parameter, public :: SP_ERR_NO_SUCH_FILE = 10
    integer, parameter, public :: SP_ERR_NOT_HDF5 = 11
    integer, parameter, public :: SP_ERR_NOT_A_PROFILE = 12
    integer, parameter, public :: SP_ERR_SCHEMA_TOO_NEW = 13
    integer, parameter, public :: SP_ERR_DAMAGED = 14
    integer, parameter, public :: SP_ERR_BAD_DATASET = 15
    integer, parameter, public :: SP_ERR_NO_SUCH_REGION = 16
    integer, parameter, public :: SP_ERR_NO_SUCH_RANK = 17
    integer, parameter, public :: SP_ERR_BAD_PATTERN = 18
    integer, parameter, public :: SP_ERR_NESTING = 19
    integer, parameter, public :: SP_ERR_UNAVAILABLE = 20
    integer, parameter, public :: SP_ERR_BAD_OPTION = 21
    integer, parameter, public :: SP_ERR_MPI = 22

    integer, parameter, public :: SP_METADATA_MINIMAL = 0, SP_METADATA_FULL = 1
    integer, parameter, public :: SP_COMPRESSION_AUTO = 0, SP_COMPRESSION_NONE = 1, &
                                  SP_COMPRESSION_GZIP = 2
    integer, parameter, public :: SP_CLOCK_AUTO = 0, SP_CLOCK_TSC = 1, SP_CLOCK_MONOTONIC = 2
    !> Never a valid handle: calls with it are ignored.
    integer, parameter, public :: SP_REGION_NONE = 0

    public :: sp_setup, sp_finalize, sp_is_active, sp_region, sp_begin, sp_end, sp_begin_name, &
              sp_end_name, sp_reserve, sp_status_string, sp_set_thread_name, &
              sp_set_metadata, sp_region_add_tag

    !> User metadata (docs/metadata.md): the value's type picks the stored type.
    interface sp_set_metadata
        module procedure sp_set_metadata_text, sp_set_metadata_int32, sp_set_metadata_int64, &
            sp_set_metadata_real32, sp_set_metadata_real64
    end interface
    ! For scope_profiler_mpi: the setup arguments in their C form.
    public :: sp_f_setup_args, sp_f_make_setup_args

    !> The setup arguments as the C shim (sp_fortran_options.h) takes them.
    type, bind(C) :: sp_f_setup_args
        type(c_ptr) :: file_path = c_null_ptr
        integer(c_long) :: file_path_len = -1
        type(c_ptr) :: label = c_null_ptr
        integer(c_long) :: label_len = -1
        integer(c_int) :: metadata_detail = 0
        integer(c_int) :: capture_source = 0
        integer(c_int) :: disable = 0
        integer(c_int) :: compression = 0
        integer(c_int) :: compression_level = 0
        integer(c_int) :: clock = 0
    end type

    !> sp_begin(h): starts a call of the region (the C sp_begin, one call away).
    interface
        subroutine sp_begin(region) bind(C, name="sp_begin_fn")
            import :: c_int
            integer(c_int), value :: region
        end subroutine
    end interface

    !> sp_end(h) or sp_end(h, file, line): ends the innermost call of the region.
    interface sp_end
        subroutine sp_end_here(region) bind(C, name="sp_f_end")
            import :: c_int
            integer(c_int), value :: region
        end subroutine
        module procedure sp_end_at
    end interface

    interface
        function c_setup(args) bind(C, name="sp_f_setup") result(status)
            import :: c_int, sp_f_setup_args
            type(sp_f_setup_args), intent(in) :: args
            integer(c_int) :: status
        end function
        function c_finalize(quiet) bind(C, name="sp_f_finalize") result(status)
            import :: c_int
            integer(c_int), value :: quiet
            integer(c_int) :: status
        end function
        function c_is_active() bind(C, name="sp_is_active") result(active)
            import :: c_int
            integer(c_int) :: active
        end function
        function c_region(name, name_len, file, file_len, line) bind(C, name="sp_f_region") &
            result(region)
            import :: c_char, c_long, c_int
            character(kind=c_char), intent(in) :: name(*), file(*)
            integer(c_long), value :: name_len, file_len
            integer(c_int), value :: line
            integer(c_int) :: region
        end function
        subroutine c_end_at(region, file, file_len, line) bind(C, name="sp_f_end_at")
            import :: c_char, c_long, c_int
            integer(c_int), value :: region
            character(kind=c_char), intent(in) :: file(*)
            integer(c_long), value :: file_len
            integer(c_int), value :: line
        end subroutine
        subroutine c_begin_name(name, name_len, file, file_len, line) &
            bind(C, name="sp_f_begin_name")
            import :: c_char, c_long, c_int
            character(kind=c_char), intent(in) :: name(*), file(*)
            integer(c_long), value :: name_len, file_len
            integer(c_int), value :: line
        end subroutine
        subroutine c_end_name(name, name_len, file, file_len, line) bind(C, name="sp_f_end_name")
            import :: c_char, c_long, c_int
            character(kind=c_char), intent(in) :: name(*), file(*)
            integer(c_long), value :: name_len, file_len
            integer(c_int), value :: line
        end subroutine
        function c_reserve(region, calls) bind(C, name="sp_reserve") result(status)
            import :: c_int, c_int64_t
            integer(c_int), value :: region
            integer(c_int64_t), value :: calls
            integer(c_int) :: status
        end function
        function c_status_string(status) bind(C, name="sp_status_string") result(text)
            import :: c_int, c_ptr
            integer(c_int), value :: status
            type(c_ptr) :: text
        end function
        function c_strlen(text) bind(C, name="strlen") result(n)
            import :: c_ptr, c_size_t
            type(c_ptr), value :: text
            integer(c_size_t) :: n
        end function
        function c_set_thread_name(name, name_len) bind(C, name="sp_f_set_thread_name") &
            result(status)
            import :: c_char, c_long, c_int
            character(kind=c_char), intent(in) :: name(*)
            integer(c_long), value :: name_len
            integer(c_int) :: status
        end function
        function c_set_metadata(key, key_len, kind, text, text_len, int_value, real_value) &
            bind(C, name="sp_f_set_metadata") result(status)
            import :: c_char, c_long, c_int, c_int64_t, c_double
            character(kind=c_char), intent(in) :: key(*), text(*)
            integer(c_long), value :: key_len, text_len
            integer(c_int), value :: kind
            integer(c_int64_t), value :: int_value
            real(c_double), value :: real_value
            integer(c_int) :: status
        end function
        function c_region_add_tag(region, tag, tag_len) bind(C, name="sp_f_region_add_tag") &
            result(status)
            import :: c_char, c_long, c_int
            integer(c_int), value :: region
            character(kind=c_char), intent(in) :: tag(*)
            integer(c_long), value :: tag_len
            integer(c_int) :: status
        end function
    end interface

contains

    !> The C form of sp_setup's arguments; the strings must outlive its use.
    function sp_f_make_setup_args(file_path, label, metadata_detail, capture_source, disable, &
                                  compression, compression_level, clock) result(args)
        character(kind=c_char, len=*), intent(in), target, optional :: file_path, label
        integer, intent(in), optional :: metadata_detail, compression, compression_level, clock
        logical, intent(in), optional :: capture_source, disable
        type(sp_f_setup_args) :: args
        if (present(file_path)) then
            args%file_path = c_loc(file_path)
            args%file_path_len = len_trim(file_path, kind=c_long)
        end if
        if (present(label)) then
            args%label = c_loc(label)
            args%label_len = len_trim(label, kind=c_long)
        end if
        if (present(metadata_detail)) args%metadata_detail = metadata_detail
        if (present(capture_source)) args%capture_source = merge(1, 0, capture_source)
        if (present(disable)) args%disable = merge(1, 0, disable)
        if (present(compression)) args%compression = compression
        if (present(compression_level)) args%compression_level = compression_level
        if (present(clock)) args%clock = clock
    end function

    !> Starts a profiling session; every argument is optional (defaults as in C, and the
    !> SCOPE_PROFILER_* environment variables override them). Records "fortran" as the
    !> program's language.
    subroutine sp_setup(file_path, label, metadata_detail, capture_source, disable, &
                        compression, compression_level, clock, status)
        character(kind=c_char, len=*), intent(in), target, optional :: file_path, label
        integer, intent(in), optional :: metadata_detail, compression, compression_level, clock
        logical, intent(in), optional :: capture_source, disable
        integer, intent(out), optional :: status
        type(sp_f_setup_args) :: args
        integer :: st
        args = sp_f_make_setup_args(file_path, label, metadata_detail, capture_source, disable, &
                                    compression, compression_level, clock)
        st = c_setup(args)
        if (present(status)) status = st
    end subroutine

    !> Ends the session and writes the file; prints the summary unless quiet.
    subroutine sp_finalize(quiet, status)
        logical, intent(in), optional :: quiet
        integer, intent(out), optional :: status
        integer :: st, q
        q = 0
        if (present(quiet)) q = merge(1, 0, quiet)
        st = c_finalize(q)
        if (present(status)) status = st
    end subroutine

    !> True while a session records.
    logical function sp_is_active()
        sp_is_active = c_is_active() /= 0
    end function

    !> The handle of a region name (the same name, the same handle); file and line give
    !> its source location (SP_LOC passes both). SP_REGION_NONE if name is empty.
    integer function sp_region(name, file, line)
        character(kind=c_char, len=*), intent(in) :: name
        character(kind=c_char, len=*), intent(in), optional :: file
        integer, intent(in), optional :: line
        if (present(file)) then
            sp_region = c_region(name, len_trim(name, kind=c_long), file, &
                                 len_trim(file, kind=c_long), line_or_zero(line))
        else
            sp_region = c_region(name, len_trim(name, kind=c_long), c_char_"", -1_c_long, &
                                 line_or_zero(line))
        end if
    end function

    subroutine sp_end_at(region, file, line)
        integer(c_int), intent(in) :: region
        character(kind=c_char, len=*), intent(in) :: file
        integer, intent(in) :: line
        call c_end_at(region, file, len_trim(file, kind=c_long), line)
    end subroutine

    !> Starts a call by name (through a per-thread cache; the handle form is cheaper).
    subroutine sp_begin_name(name, file, line)
        character(kind=c_char, len=*), intent(in) :: name
        character(kind=c_char, len=*), intent(in), optional :: file
        integer, intent(in), optional :: line
        if (present(file)) then
            call c_begin_name(name, len_trim(name, kind=c_long), file, len_trim(file, kind=c_long), &
                     line_or_zero(line))
        else
            call c_begin_name(name, len_trim(name, kind=c_long), c_char_"", -1_c_long, line_or_zero(line))
        end if
    end subroutine

    !> Ends a call by name.
    subroutine sp_end_name(name, file, line)
        character(kind=c_char, len=*), intent(in) :: name
        character(kind=c_char, len=*), intent(in), optional :: file
        integer, intent(in), optional :: line
        if (present(file)) then
            call c_end_name(name, len_trim(name, kind=c_long), file, len_trim(file, kind=c_long), &
                     line_or_zero(line))
        else
            call c_end_name(name, len_trim(name, kind=c_long), c_char_"", -1_c_long, line_or_zero(line))
        end if
    end subroutine

    !> Pre-allocates room for `calls` more calls of the region on this thread.
    subroutine sp_reserve(region, calls, status)
        integer, intent(in) :: region
        integer(c_int64_t), intent(in) :: calls
        integer, intent(out), optional :: status
        integer :: st
        st = c_reserve(region, calls)
        if (present(status)) status = st
    end subroutine

    !> A one-sentence description of a status code.
    function sp_status_string(status) result(text)
        integer, intent(in) :: status
        character(len=:), allocatable :: text
        type(c_ptr) :: p
        character(kind=c_char), pointer :: chars(:)
        integer :: i, n
        p = c_status_string(status)
        n = int(c_strlen(p))
        call c_f_pointer(p, chars, [n])
        allocate (character(len=n) :: text)
        do i = 1, n
            text(i:i) = chars(i)
        end do
    end function

    !> Names the calling thread in the profile's thread table (and in `inspect`).
    subroutine sp_set_thread_name(name, status)
        character(kind=c_char, len=*), intent(in) :: name
        integer, intent(out), optional :: status
        integer :: st
        st = c_set_thread_name(name, len_trim(name, kind=c_long))
        if (present(status)) status = st
    end subroutine

    ! --- user metadata and region tags ---------------------------------------------

    subroutine sp_set_metadata_text(key, value, status)
        character(kind=c_char, len=*), intent(in) :: key, value
        integer, intent(out), optional :: status
        integer :: st
        st = c_set_metadata(key, len_trim(key, kind=c_long), 0_c_int, value, &
                            len_trim(value, kind=c_long), 0_c_int64_t, 0.0_c_double)
        if (present(status)) status = st
    end subroutine

    subroutine sp_set_metadata_int64(key, value, status)
        character(kind=c_char, len=*), intent(in) :: key
        integer(c_int64_t), intent(in) :: value
        integer, intent(out), optional :: status
        integer :: st
        st = c_set_metadata(key, len_trim(key, kind=c_long), 1_c_int, "", 0_c_long, value, &
                            0.0_c_double)
        if (present(status)) status = st
    end subroutine

    subroutine sp_set_metadata_int32(key, value, status)
        character(kind=c_char, len=*), intent(in) :: key
        integer(c_int32_t), intent(in) :: value
        integer, intent(out), optional :: status
        call sp_set_metadata_int64(key, int(value, c_int64_t), status)
    end subroutine

    subroutine sp_set_metadata_real64(key, value, status)
        character(kind=c_char, len=*), intent(in) :: key
        real(c_double), intent(in) :: value
        integer, intent(out), optional :: status
        integer :: st
        st = c_set_metadata(key, len_trim(key, kind=c_long), 2_c_int, "", 0_c_long, &
                            0_c_int64_t, value)
        if (present(status)) status = st
    end subroutine

    subroutine sp_set_metadata_real32(key, value, status)
        character(kind=c_char, len=*), intent(in) :: key
        real(c_float), intent(in) :: value
        integer, intent(out), optional :: status
        call sp_set_metadata_real64(key, real(value, c_double), status)
    end subroutine

    subroutine sp_region_add_tag(region, tag, status)
        integer, intent(in) :: region
        character(kind=c_char, len=*), intent(in) :: tag
        integer, intent(out), optional :: status
        integer :: st
        st = c_region_add_tag(int(region, c_int), tag, len_trim(tag, kind=c_long))
        if (present(status)) status = st
    end subroutine

    ! --- optional source locations -------------------------------------------------

    integer(c_int) function line_or_zero(line)
        integer, intent(in), optional :: line
        line_or_zero = 0
        if (present(line)) line_or_zero = line
    end function
end module scope_profiler
