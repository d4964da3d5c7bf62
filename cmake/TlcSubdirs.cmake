#===- TlcSubdirs.cmake - Add every subdirectory that has a CMakeLists.txt ---===#
#
# Libraries, tools and test folders are added by presence: a new library is
# one new folder with its own CMakeLists.txt. A folder without one is searched
# further down (compiler/include/tlc/Dialect/Tile/IR holds only tablegen
# rules, for instance); a folder with one is responsible for its children.
#
#===-------------------------------------------------------------------------===#

function(tlc_add_existing_subdirs dir)
  if(NOT IS_ABSOLUTE "${dir}")
    set(dir "${CMAKE_CURRENT_SOURCE_DIR}/${dir}")
  endif()
  if(EXISTS "${dir}/CMakeLists.txt")
    add_subdirectory("${dir}")
    return()
  endif()
  file(GLOB children LIST_DIRECTORIES true CONFIGURE_DEPENDS "${dir}/*")
  list(SORT children)
  foreach(child IN LISTS children)
    if(IS_DIRECTORY "${child}")
      tlc_add_existing_subdirs("${child}")
    endif()
  endforeach()
endfunction()
